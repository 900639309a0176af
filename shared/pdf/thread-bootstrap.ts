import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Source of a worker thread that registers tsx's ESM loader and only then imports its `.ts`
 * entry (`workerData.entry`). `execArgv: ['--import', 'tsx']` does not work here: on Node 20 the
 * `--import` hooks never reach a worker thread's loader, so a `.ts` entry fails with
 * ERR_UNKNOWN_FILE_EXTENSION (checked under both `tsx` and vitest).
 */
export const BOOTSTRAP_SOURCE = `
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi)
  .then((api) => { (api.register ?? api.default.register)(); return import(workerData.entry); });
`;

interface TsxPackage {
  exports: Record<string, { import?: { default?: string } } | string>;
}

let tsxApiUrl: string | undefined;
/**
 * URL of the ESM build of `tsx/esm/api`. require.resolve would give its CJS build, whose
 * register() fails to load its own ESM half; import.meta.resolve is missing under vitest.
 * So the package's own export map is read.
 */
function tsxApi(): string {
  if (tsxApiUrl) return tsxApiUrl;
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as TsxPackage;
  const entry = pkg.exports['./esm/api'];
  const target = typeof entry === 'string' ? entry : entry?.import?.default;
  if (!target) throw new Error('tsx does not export ./esm/api; the extraction threads need tsx >= 4');
  tsxApiUrl = pathToFileURL(path.join(path.dirname(pkgPath), target)).href;
  return tsxApiUrl;
}

/** `workerData` for BOOTSTRAP_SOURCE: the entry module (a URL) and the tsx loader to register. */
export function bootstrapData(entryUrl: string): { entry: string; tsxApi: string } {
  return { entry: entryUrl, tsxApi: tsxApi() };
}
