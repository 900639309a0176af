/**
 * `quarry verify sanity --doc-id <id>` (seed 000 §8.8) over the ingested example corpus: every
 * probe passes (or is skipped, saying why) for healthy documents, and a document whose chunks
 * were deleted behind the pipeline's back fails, with exit code 1.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySanity } from '../../apps/cli/commands/verify.ts';
import { sanityExitCode } from '../../shared/store/sanity.ts';
import { exampleDocId, startAcceptanceCorpus, type AcceptanceCorpus } from '../helpers/acceptance.ts';
import { REDIS_AVAILABLE } from '../helpers/redis.ts';

const bin = path.resolve(import.meta.dirname, '../../apps/cli/quarry.mjs');
const verdicts = (outcomes: { id: string; verdict: string }[]) => Object.fromEntries(outcomes.map((o) => [o.id, o.verdict]));

describe.skipIf(!REDIS_AVAILABLE)('quarry verify sanity over the example corpus', () => {
  let corpus: AcceptanceCorpus;

  const quarry = async (...args: string[]): Promise<{ code: number; out: string }> => {
    const { config } = corpus.ports;
    const env = { ...process.env, REDIS_URL: config.redisUrl, QUARRY_PREFIX: config.prefix, QUARRY_DATA_DIR: config.dataDir, QUARRY_WATCH_DIR: config.watchDir, LOG_LEVEL: 'error' };
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [bin, 'verify', 'sanity', ...args], { env, timeout: 60_000 });
      return { code: 0, out: stdout };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: `${e.stdout}${e.stderr}` };
    }
  };

  beforeAll(async () => {
    corpus = await startAcceptanceCorpus();
  }, 120_000);

  afterAll(async () => {
    await corpus?.cleanup();
  });

  it('passes every probe of each healthy example document; open bounds are skipped with a reason', async () => {
    for (const s of corpus.statuses) {
      const outcomes = await verifySanity(corpus.ports, s.docId);
      expect(outcomes.filter((o) => o.verdict === 'FAIL'), s.docId).toEqual([]);
    }
    // Both bounds: the three clamps run and pass.
    expect(verdicts(await verifySanity(corpus.ports, exampleDocId('parental-leave-policy-2023')))).toEqual({
      registered: 'PASS',
      'document-row': 'PASS',
      'count-by-doc-id': 'PASS',
      'current-version': 'PASS',
      'title-search': 'PASS',
      'clamp-before': 'PASS',
      'clamp-inside': 'PASS',
      'clamp-at-valid-to': 'PASS',
      'aggregate-doc-type': 'PASS',
      'contains-entity': 'PASS',
    });
    // Open-ended, with valid_from read from the text ("Effective date: March 1, 2024").
    const retention = await verifySanity(corpus.ports, exampleDocId('data-retention-policy'));
    expect(retention.find((o) => o.id === 'clamp-before')).toMatchObject({ verdict: 'PASS', reason: expect.stringMatching(/^time clamp at 2024-02-29 .*: 0$/) });
    expect(retention.find((o) => o.id === 'clamp-at-valid-to')).toMatchObject({ verdict: 'SKIP', reason: expect.stringMatching(/valid_to is open/) });
  }, 60_000);

  it('the command prints one line per probe and exits 0; a document whose chunks were deleted fails with exit code 1', async () => {
    const healthy = exampleDocId('parental-leave-policy-2023');
    const ok = await quarry('--doc-id', healthy);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(/^PASS {2}clamp-before +time clamp at 2022-12-31 \(the day before valid_from 2023-01-01: none of its chunks\): 0$/m);
    expect(ok.out).toMatch(/^PASS {2}clamp-at-valid-to +time clamp at 2025-01-01 .*: 0$/m);
    expect(ok.out).toMatch(/^10 passed, 0 failed, 0 skipped$/m);

    // Broken behind the pipeline's back: the chunks go, the Document row and status record stay.
    const broken = exampleDocId('benefits-faq');
    const { deletedChunks } = await corpus.ports.store.deleteByDoc(broken, { exceptVersion: '0'.repeat(64) });
    expect(deletedChunks).toBeGreaterThan(0);
    const bad = await quarry('--doc-id', broken);
    expect(bad.code, bad.out).toBe(1);
    for (const id of ['count-by-doc-id', 'current-version', 'title-search', 'clamp-inside', 'aggregate-doc-type', 'contains-entity']) {
      expect(bad.out).toMatch(new RegExp(`^FAIL {2}${id} `, 'm'));
    }
    expect(bad.out).toMatch(new RegExp(`^FAIL {2}count-by-doc-id +eq\\(doc_id\\) counts the status record's ${deletedChunks} chunks: 0 \\(expected ${deletedChunks}\\)$`, 'm'));
    expect(bad.out).toMatch(/^PASS {2}document-row /m);

    // In process (each command start costs seconds): an unknown document fails the same way.
    const unknown = await verifySanity(corpus.ports, 'no-such-doc');
    expect(unknown).toEqual([{ id: 'registered', verdict: 'FAIL', reason: 'no-such-doc is not registered' }]);
    expect(sanityExitCode(unknown)).toBe(1);
  }, 90_000);
});
