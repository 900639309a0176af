// What `npm run build` adds to tsc's output: the run-time files that are not TypeScript (the Lua
// scripts, read by shared/redis/lua.ts beside the module that owns them), copied from apps/,
// core/, workers/, queues/ and shared/ into the output folder at the same paths.
// Usage: node infra/copy-assets.mjs [outDir]   (outDir defaults to dist)
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = ['apps', 'core', 'workers', 'queues', 'shared'];
const ASSET = /\.lua$/;

const out = path.resolve(ROOT, process.argv[2] ?? 'dist');
let copied = 0;
for (const dir of SOURCES) {
  for (const file of readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
    if (!ASSET.test(file) || file.split(path.sep).includes('node_modules')) continue;
    const to = path.join(out, dir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(path.join(ROOT, dir, file), to);
    copied += 1;
  }
}
if (copied === 0) throw new Error('no .lua file found to copy: run from the repository root');
