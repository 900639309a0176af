import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedInFreshProcess } from '../../bench/pipeline-runs.ts';
import { generateCorpus } from '../fixtures/corpus.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';

// `bench ingest`'s warm figures: the queued run carries warm-up documents first, uncounted.
describe.skipIf(!REDIS_AVAILABLE)('the queued bench run after a warm-up', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-queued-warmup-'));
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('counts the corpus only, its CPU from the moment the warm-up has settled', async () => {
    const corpus = await generateCorpus(path.join(root, 'corpus'), { count: 2, seed: 41, pagesPerDoc: [1, 2] });
    const warmup = await generateCorpus(path.join(root, 'warmup'), { count: 3, seed: 42, pagesPerDoc: [2, 2] });
    const run = await queuedInFreshProcess(root, redis.url, corpus.files, warmup.files);
    expect(run.pages).toBe(corpus.docs.reduce((n, d) => n + d.pageCount, 0));
    expect(run.chunks).toBeGreaterThan(0);
    if (process.platform === 'linux') expect(run.parts?.mainThread).toBeGreaterThan(0);
  }, 180_000);
});
