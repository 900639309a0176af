import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
 * The file an extraction child runs: `<name>` beside the module at `selfUrl`, with that module's
 * own extension. Run from sources (tsx, vitest) the pool is `extraction-pool.ts` and the child
 * entry is a `.ts` file; compiled (`npm run build`) the pool is `extraction-pool.js` and so is the
 * entry, which plain Node runs without tsx.
 *
 * @param selfUrl `import.meta.url` of the module that forks.
 * @param name the entry's file name without extension (`extract-child-entry`).
 */
export function childEntryPath(selfUrl: string, name: string): string {
  const self = fileURLToPath(selfUrl);
  return path.join(path.dirname(self), name + path.extname(self));
}

/** Whether a child entry is TypeScript (needs tsx's loader) rather than compiled JavaScript. */
export function needsTsLoader(entryPath: string): boolean {
  return /\.[mc]?ts$/.test(entryPath);
}

/**
 * Young-generation semi-space of an extraction child, in MB. V8's default (16 MB, tripled for
 * the new space) is kept resident once pdf.js has filled it. 1 MB took a child from ~114 to
 * ~87 MB after 50 small documents, but made the 352-page book ~20% slower to extract (median of
 * six runs in one child, two alternating rounds: 1.68/1.79 s against 1.49/1.44 s at 4 MB and
 * 1.45/1.47 s at 8 MB); 4 MB keeps the default's speed for a few MB more per child.
 */
export const CHILD_SEMI_SPACE_MB = 4;

/**
 * Node flags of an extraction child: tsx's loader when the entry is TypeScript (development; a
 * compiled entry needs none, so production images carry no tsx), a V8 heap limit so a runaway JS
 * heap ends in a quick V8 out-of-memory abort instead of growing up to the RSS watchdog's limit,
 * and a small young generation ({@link CHILD_SEMI_SPACE_MB}).
 *
 * @throws Error when the entry is TypeScript and tsx is missing or too old.
 */
export function childExecArgv(maxHeapMb: number, entryPath: string): string[] {
  const v8 = [`--max-old-space-size=${maxHeapMb}`, `--max-semi-space-size=${CHILD_SEMI_SPACE_MB}`];
  return needsTsLoader(entryPath) ? ['--import', tsxLoaderUrl(), ...v8] : v8;
}

/**
 * The environment of an extraction child: the parent's, less `NODE_COMPILE_CACHE`, plus `extra`.
 * The image's compile cache (infra/Dockerfile) starts a worker ~100 ms sooner for 1–4 MB more; a
 * child reading a cache that held pdf.js started with 8–12 MB more resident (24 against 16 MB of
 * its own, idle) to load pdf.js ~45 ms sooner — and a child is started once per worker and again
 * every 500 documents, while its memory counts all the time. So children run without the cache
 * (and the warm-up leaves pdf.js, which only they load, out of it).
 */
export function childEnv(parent: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...parent, ...extra };
  delete env['NODE_COMPILE_CACHE'];
  return env;
}
