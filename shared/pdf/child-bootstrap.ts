import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface TsxPackage {
  exports: Record<string, { import?: string | { default?: string } } | string>;
}

let loaderUrl: string | undefined;

/**
 * URL of tsx's loader (`tsx` package, ESM `.` export), for `--import` in an extraction child, so
 * the child runs the `.ts` entry as it is. A URL rather than the bare name `tsx`: a bare
 * `--import` specifier resolves from the child's working directory, which need not be this
 * package. Read from the package's own export map (import.meta.resolve is missing under vitest).
 * @throws Error when the installed tsx has no ESM loader export (tsx < 4).
 */
export function tsxLoaderUrl(): string {
  if (loaderUrl) return loaderUrl;
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as TsxPackage;
  const entry = pkg.exports['.'];
  const target = typeof entry === 'string' ? entry : typeof entry?.import === 'string' ? entry.import : entry?.import?.default;
  if (!target) throw new Error('tsx does not export an ESM loader; extraction children need tsx >= 4');
  loaderUrl = pathToFileURL(path.join(path.dirname(pkgPath), target)).href;
  return loaderUrl;
}

/**
 * Node flags of an extraction child: tsx's loader, and a V8 heap limit so a runaway JS heap ends
 * in a quick V8 out-of-memory abort instead of growing up to the RSS watchdog's limit.
 */
export function childExecArgv(maxHeapMb: number): string[] {
  return ['--import', tsxLoaderUrl(), `--max-old-space-size=${maxHeapMb}`];
}
