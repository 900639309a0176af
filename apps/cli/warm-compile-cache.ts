/**
 * Fills Node's compile cache (`NODE_COMPILE_CACHE`) at image build time, so that a process started
 * from the image — a worker scaled up from zero, a rollout — reads the bytecode of its modules
 * instead of compiling them (extraction children do not use it: see childEnv in
 * shared/pdf/child-bootstrap.ts). Run once as the user the processes run as (the cache keeps one
 * folder per user id), with the compiled build:
 *
 *     NODE_COMPILE_CACHE=<dir> node dist/apps/cli/warm-compile-cache.js
 *
 * A read-only cache (Kubernetes' read-only root file system) is read as it is; Node checks each
 * entry against its module's source, so a stale one is compiled again, never used.
 */
import module from 'node:module';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Modules that act when imported: the CLI's entry runs the command line. */
const ENTRY_POINTS = new Set(['apps/cli/bin.js']);

/** Every `.js` file under `root`, as paths relative to it with `/` separators, sorted. */
function compiledModules(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.js')) out.push(path.relative(root, file).split(path.sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/**
 * Imports every module of the compiled build under `distRoot` (entry points that act on import
 * left out), then writes the cache out.
 * @returns how many modules of the build were imported.
 * @throws Error when the compile cache is not enabled (NODE_COMPILE_CACHE unset) or a module fails to import.
 */
export async function warmCompileCache(distRoot: string): Promise<{ modules: number; cacheDir: string }> {
  const cacheDir = module.getCompileCacheDir();
  if (!cacheDir) throw new Error('the compile cache is off: set NODE_COMPILE_CACHE to the folder it should fill');
  const files = compiledModules(distRoot).filter((f) => !ENTRY_POINTS.has(f));
  const failed: string[] = [];
  for (const file of files) {
    try {
      await import(pathToFileURL(path.join(distRoot, file)).href);
    } catch (err) {
      failed.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (failed.length > 0) throw new Error(`${failed.length} compiled module(s) failed to import:\n${failed.join('\n')}`);
  module.flushCompileCache();
  return { modules: files.length, cacheDir };
}

// Run as a script (the image build); importing it does nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const self = fileURLToPath(import.meta.url);
  // dist/apps/cli/warm-compile-cache.js → dist/. From the sources it would walk the repository.
  const distRoot = path.resolve(path.dirname(self), '../..');
  const run = self.endsWith('.js') ? warmCompileCache(distRoot) : Promise.reject(new Error('run the compiled build (npm run build; node dist/apps/cli/warm-compile-cache.js)'));
  run.then(
    ({ modules, cacheDir }) => console.log(`compile cache: ${modules} modules compiled into ${cacheDir}`),
    (err: unknown) => {
      console.error(`compile cache: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
