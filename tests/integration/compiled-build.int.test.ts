/**
 * The compiled build (`npm run build`: tsc with tsconfig.build.json) runs without tsx: the CLI
 * answers `--help`, and a PDF goes through the extraction pool, whose child process is the
 * compiled `.js` entry started by plain Node. The build goes to its own folder (CI runs
 * `npm test` only, and dist/ may be someone's older build); that folder sits under node_modules so
 * the compiled files resolve packages the way dist/ does.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const cacheDir = path.join(root, 'node_modules/.cache');

describe('compiled build', () => {
  let out = '';

  beforeAll(async () => {
    mkdirSync(cacheDir, { recursive: true });
    out = mkdtempSync(path.join(cacheDir, 'quarry-build-test-'));
    // The same commands as `npm run build`, with the output folder moved.
    await run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', out], { cwd: root, timeout: 90_000 });
    await run(process.execPath, [path.join(root, 'infra/copy-assets.mjs'), out], { cwd: root, timeout: 30_000 });
  }, 120_000);

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('emits JavaScript with relative imports rewritten to .js', async () => {
    expect(existsSync(path.join(out, 'apps/cli/bin.js'))).toBe(true);
    expect(existsSync(path.join(out, 'shared/pdf/extract-child-entry.js'))).toBe(true);
    // No TypeScript left to compile at run time.
    expect(existsSync(path.join(out, 'apps/cli/bin.ts'))).toBe(false);
  });

  it('copies each .lua script beside its compiled module, which reads it there', async () => {
    expect(existsSync(path.join(out, 'shared/status/status-register.lua'))).toBe(true);
    const script = `
      const { REGISTER } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'shared/status/status-scripts.js')).href)});
      const { DECAY_BATCH } = await import(${JSON.stringify(pathToFileURL(path.join(out, 'shared/memory/memory-scripts.js')).href)});
      console.log(JSON.stringify([REGISTER.source, DECAY_BATCH.source]));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } });
    const [register, decay] = JSON.parse(stdout.trim()) as [string, string];
    expect(register).toBe(readFileSync(path.join(root, 'shared/status/status-register.lua'), 'utf8'));
    // The memory scripts are their helpers, then their own file.
    expect(decay.startsWith(readFileSync(path.join(root, 'shared/memory/memory-helpers.lua'), 'utf8'))).toBe(true);
  });

  it('the compiled CLI answers --help with plain node', async () => {
    const { stdout } = await run(process.execPath, [path.join(out, 'apps/cli/bin.js'), '--help'], { cwd: root, timeout: 30_000 });
    expect(stdout).toMatch(/Usage: quarry/);
    for (const command of ['ingest', 'workers', 'gateway', 'search', 'mcp']) expect(stdout).toContain(command);
  });

  it('extracts a PDF through the compiled pool, its child running the compiled entry', async () => {
    const pool = path.join(out, 'shared/pdf/extraction-pool.js');
    const pdf = path.join(root, 'examples/docs/benefits-faq.pdf');
    const script = `
      import { readFileSync } from 'node:fs';
      const { createExtractionPool } = await import(${JSON.stringify(pool)});
      const pool = createExtractionPool({ size: 1, timeoutMs: 30000, maxHeapMb: 256 });
      try {
        const doc = await pool.extract({ bytes: new Uint8Array(readFileSync(${JSON.stringify(pdf)})) }, { maxBytes: 50e6, maxPages: 100 });
        const text = doc.pages.flatMap((p) => p.lines.map((l) => l.text)).join(' ');
        console.log(JSON.stringify({ pageCount: doc.pageCount, chars: text.length }));
      } finally {
        await pool.close();
      }`;
    // NODE_OPTIONS cleared: nothing (vitest, tsx) may lend the child a TypeScript loader.
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
    const result = JSON.parse(stdout.trim()) as { pageCount: number; chars: number };
    expect(result.pageCount).toBeGreaterThan(0);
    expect(result.chars).toBeGreaterThan(100);
  }, 90_000);

  it('a stage worker process loads no store, S3, LLM, agent, gateway or MCP package at start-up', async () => {
    // A resolve hook reports every package the compiled code imports; the modules are those
    // `quarry workers start` loads before it starts a worker (the command group, service, ports, registry).
    const hooks = `export async function resolve(s, c, next) {
      if (!/^(\\.|\\/|node:|file:|data:)/.test(s) && (c.parentURL ?? '').startsWith(${JSON.stringify(pathToFileURL(out).href)})) process.stderr.write('PKG ' + s + '\\n');
      return next(s, c);
    }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
      await import(${JSON.stringify(pathToFileURL(path.join(out, 'apps/cli/commands/run.js')).href)});
      await import(${JSON.stringify(pathToFileURL(path.join(out, 'workers/compose.js')).href)});`;
    const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
    const loaded = new Set([...stderr.matchAll(/^PKG (\S+)$/gm)].map((m) => m[1]));
    expect(loaded, 'the hook saw nothing: the check would pass vacuously').toContain('bullmq');
    for (const heavy of ['@lancedb/lancedb', 'apache-arrow', 'weaviate-client', '@aws-sdk/client-s3', 'openai', '@langchain/langgraph', 'fastify', '@modelcontextprotocol/sdk/server/mcp.js', 'chokidar']) {
      expect(loaded.has(heavy), `${heavy} is imported at start-up`).toBe(false);
    }
  }, 60_000);

  it("fills Node's compile cache with every compiled module, which a later process reads instead of compiling", async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'quarry-compile-cache-'));
    try {
      const env = { ...process.env, NODE_OPTIONS: '', NODE_COMPILE_CACHE: cache };
      const { stdout } = await run(process.execPath, [path.join(out, 'apps/cli/warm-compile-cache.js')], { cwd: root, timeout: 60_000, env });
      const modules = Number(/(\d+) modules compiled/.exec(stdout)?.[1]);
      expect(modules).toBeGreaterThan(200);
      // A later process: the worker registry's modules come from the cache, as checked by Node.
      const script = `await import(${JSON.stringify(pathToFileURL(path.join(out, 'workers/index.js')).href)});`;
      const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: root,
        timeout: 60_000,
        env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      });
      expect(stderr).toMatch(/cache for \S+\/workers\/index\.js was accepted/);
      expect(stderr).not.toMatch(/\/workers\/index\.js was rejected/);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 90_000);

  it('the compile cache warm-up refuses to run without a cache folder', async () => {
    const failed = await run(process.execPath, [path.join(out, 'apps/cli/warm-compile-cache.js')], {
      cwd: root,
      timeout: 30_000,
      env: { ...process.env, NODE_OPTIONS: '', NODE_COMPILE_CACHE: '' },
    }).then(
      () => null,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/NODE_COMPILE_CACHE/);
  });

  it('the installed bin says to build first when dist/ is missing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bin-'));
    try {
      mkdirSync(path.join(dir, 'apps/cli'), { recursive: true });
      // The bin as the package installs it: its entry and the shim it runs first.
      for (const f of ['quarry-dist.mjs', 'newer-node.mjs']) copyFileSync(path.join(root, 'apps/cli', f), path.join(dir, 'apps/cli', f));
      const failed = await run(process.execPath, [path.join(dir, 'apps/cli/quarry-dist.mjs'), '--help'], { timeout: 10_000 }).then(
        () => null,
        (err: { code?: number; stderr?: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(/npm run build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
