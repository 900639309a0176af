import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'apps/cli/quarry.mjs');

describe.skipIf(!REDIS_AVAILABLE)('the quarry command', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let workers: ChildProcess;
  let env: NodeJS.ProcessEnv;

  const quarry = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: ws.root, env, timeout: 120_000 });
      return { code: 0, stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: `${e.stdout}${e.stderr}` };
    }
  };

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url);
    // Manifests name paths relative to the working directory: give the CLI a copy of examples/.
    cpSync(path.join(root, 'examples'), path.join(ws.root, 'examples'), { recursive: true });
    const { config } = ws;
    env = { ...process.env, REDIS_URL: config.redisUrl, QUARRY_PREFIX: config.prefix, QUARRY_DATA_DIR: config.dataDir, QUARRY_WATCH_DIR: config.watchDir, LOG_LEVEL: 'error' };
    workers = spawn(process.execPath, [bin, 'workers', 'start'], { cwd: ws.root, env, stdio: 'inherit' });
  });

  afterAll(async () => {
    if (workers && workers.exitCode === null) {
      workers.kill('SIGTERM');
      await new Promise((r) => workers.once('exit', r));
    }
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('runs a manifest, reports status, replays a stage and searches', async () => {
    const run = await quarry('jobs', 'run', 'examples/jobs/korean.jsonl', '--wait', '--timeout', '120');
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/registered\s+file-examples-docs-ko-birth-incentive-guideline-[0-9a-f]{10}/);
    expect(run.stdout).toMatch(/\d+ indexed/);

    const again = await quarry('jobs', 'run', 'examples/jobs/korean.jsonl');
    expect(again.stdout).not.toMatch(/registered/);
    expect(again.stdout).toMatch(/unchanged/);

    const status = JSON.parse((await quarry('status', '--json')).stdout) as { queues: { queue: string }[]; documents: { docId: string; state: string }[] };
    expect(status.queues.map((q) => q.queue)).toContain('ingest-extract');
    expect(status.documents.every((d) => d.state === 'indexed')).toBe(true);

    const docId = status.documents.find((d) => d.docId.includes('birth-incentive'))!.docId;
    const replay = await quarry('ingest', 'chunk', '--doc-id', docId);
    expect(replay.code, replay.stdout).toBe(0);
    expect(replay.stdout).toMatch(/^chunk .*\{"chunkCount":\d+\}/m);

    const search = await quarry('search', '출산장려금 지원 금액', '--limit', '2');
    expect(search.stdout).toContain(docId);
    expect(search.stdout).toMatch(/지원 금액.* · p\.\d/);
  }, 180_000);

  it('reindexes into another store from stored artifacts, and refuses to copy a store onto itself', async () => {
    const copyDir = path.join(ws.root, 'copy');
    const same = await quarry('reindex', '--to', 'lancedb');
    expect(same.code).toBe(1);
    expect(same.stdout).toMatch(/target is the configured store itself.*--data-dir/);
    const noWeaviate = await quarry('reindex', '--to', 'weaviate');
    expect(noWeaviate.stdout).toMatch(/WEAVIATE_URL: required when VECTOR_STORE=weaviate/);

    const copied = await quarry('reindex', '--to', 'lancedb', '--data-dir', copyDir);
    expect(copied.code, copied.stdout).toBe(0);
    const m = /reindexed (\d+) document\(s\), (\d+) chunk\(s\), (\d+) facet value\(s\)/.exec(copied.stdout);
    expect(m, copied.stdout).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThan(0);
    const status = JSON.parse((await quarry('status', '--json')).stdout) as { documents: { state: string; chunkCount: number | null }[] };
    const indexed = status.documents.filter((d) => d.state === 'indexed');
    expect(Number(m?.[1])).toBe(indexed.length);
    expect(Number(m?.[2])).toBe(indexed.reduce((n, d) => n + (d.chunkCount ?? 0), 0));

    // The copy answers like the original, without any stage having run for it.
    const search = (dataDir: string) =>
      promisify(execFile)(process.execPath, [bin, 'search', '출산장려금 지원 금액', '--limit', '3'], { cwd: ws.root, env: { ...env, QUARRY_DATA_DIR: dataDir } }).then((r) => r.stdout);
    expect(await search(copyDir)).toBe(await search(ws.config.dataDir));
  }, 120_000);

  it('says clearly what is wrong with bad input', async () => {
    const missing = await quarry('ingest', 'register-source', '--path', 'nope.pdf');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/quarry: .*nope\.pdf/);
    const badDate = await quarry('ingest', 'register-source', '--path', 'examples/docs/benefits-faq.pdf', '--valid-from', '2025-13-01');
    expect(badDate.stdout).toMatch(/INVALID_METADATA: command line: valid_from/);
    const unknownDoc = await quarry('ingest', 'embed', '--doc-id', 'no-such-doc');
    expect(unknownDoc.stdout).toMatch(/not registered/);
    const badConfig = await promisify(execFile)(process.execPath, [bin, 'status'], { cwd: ws.root, env: { ...env, EMBED_DIMENSION: 'x', REDIS_URL: 'nope' } }).catch((e: { stderr: string }) => e);
    expect((badConfig as { stderr: string }).stderr).toMatch(/EMBED_DIMENSION.*\n.*REDIS_URL|REDIS_URL.*\n.*EMBED_DIMENSION/);
  }, 60_000);

  it('runs the demo end to end on a private prefix', async () => {
    const demo = await quarry('demo');
    expect(demo.code, demo.stdout).toBe(0);
    expect(demo.stdout).toMatch(/10 indexed/);
    expect(demo.stdout).toMatch(/Search \(alpha 0\.5\): How many weeks of paid parental leave/);
    expect(demo.stdout).toMatch(/Leave Entitlement · p\.\d/);
    // The agent answers now from the current policy, and as of 2024 from the superseded one.
    expect(demo.stdout).toMatch(/As of \d{4}-\d{2}-\d{2}: .*sixteen \(16\) weeks/);
    expect(demo.stdout).toMatch(/As of 2024-06-01: .*twelve \(12\) weeks/);
    expect(demo.stdout).toMatch(/\[1\] Parental Leave Policy — 5\. Leave Entitlement > 5\.1 Paid parental leave, p\.2/);
  }, 180_000);
});
