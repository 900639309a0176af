/**
 * The compiled build (`npm run build` → dist/) as the benchmarks start it: the processes that
 * production runs (the container's `quarry` bin) are plain Node on dist/, not tsx on the sources.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The compiled CLI entry. */
export const COMPILED_BIN = path.join(ROOT, 'dist/apps/cli/bin.js');

/** The development entry: the sources through tsx. */
export const TSX_BIN = path.join(ROOT, 'apps/cli/quarry.mjs');

/** The image build's compile-cache warm-up, compiled (infra/Dockerfile). */
const WARM_COMPILE_CACHE = path.join(ROOT, 'dist/apps/cli/warm-compile-cache.js');

let building: Promise<void> | null = null;

/**
 * Builds dist/ from the current sources (tsc -p tsconfig.build.json, then the .lua files), once per process however
 * often it is asked for, so the compiled figures are those of this checkout.
 * @throws Error when the build fails or leaves no dist/apps/cli/bin.js.
 */
export function buildDist(): Promise<void> {
  building ??= (async () => {
    // As `npm run build` does: a module moved or deleted since the last build must not linger in
    // dist/ (tsc never removes an output), where the compile-cache warm-up would import it.
    rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
    // The Lua scripts, read beside their modules at run time (tsc copies only what it compiles).
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'infra/copy-assets.mjs'), 'dist'], { cwd: ROOT });
    if (!existsSync(COMPILED_BIN)) throw new Error('the build left no dist/apps/cli/bin.js');
  })();
  return building;
}

let compileCache: Promise<string> | null = null;

/**
 * A compile cache filled from dist/ as the image build does (build dist/ first), once per process
 * however often it is asked for: processes started with `NODE_COMPILE_CACHE` set to it start as
 * the image's do. Removed when this process exits.
 * @throws Error when the warm-up fails (a module that does not import).
 */
export function filledCompileCache(): Promise<string> {
  compileCache ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bench-compile-cache-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await promisify(execFile)(process.execPath, [WARM_COMPILE_CACHE], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', NODE_COMPILE_CACHE: dir } });
    return dir;
  })();
  return compileCache;
}
