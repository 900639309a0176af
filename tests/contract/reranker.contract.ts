import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RerankDoc, Reranker } from '../../shared/retrieval/reranker.ts';

const EN_DOCS: RerankDoc[] = [
  { id: 'remote', text: 'Remote work requires written approval from your manager and a secure home office.' },
  { id: 'leave', text: 'Eligible employees receive sixteen weeks of paid parental leave after the birth of a child.' },
  { id: 'retention', text: 'Records are kept for seven years and then disposed of securely.' },
];

const KO_DOCS: RerankDoc[] = [
  { id: 'ko-remote', text: '재택근무는 부서장의 승인을 받아 주 2일까지 할 수 있다.' },
  { id: 'ko-incentive', text: '제4조(출산장려금의 지급) 시장은 자녀를 출산한 가정에 출산장려금을 지급한다.' },
];

/**
 * The Reranker contract. `setup` returns a ready reranker and a teardown (for adapters that need
 * a server); every adapter must pass it.
 */
export function runRerankerContract(name: string, setup: () => Promise<{ reranker: Reranker; teardown(): Promise<void> }>): void {
  describe(`Reranker contract: ${name}`, () => {
    let reranker: Reranker;
    let teardown: () => Promise<void>;
    beforeAll(async () => {
      ({ reranker, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
    });

    it('names itself', () => {
      expect(reranker.name.length).toBeGreaterThan(0);
    });

    it('returns every id once, with finite scores in [0, 1], best first', async () => {
      const results = await reranker.rerank('paid parental leave for employees', EN_DOCS);
      expect(results.map((r) => r.id).sort()).toEqual(EN_DOCS.map((d) => d.id).sort());
      for (const r of results) {
        expect(Number.isFinite(r.score)).toBe(true);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(1);
      }
      for (let i = 1; i < results.length; i += 1) expect((results[i - 1]?.score ?? 0) >= (results[i]?.score ?? 0)).toBe(true);
    });

    it('ranks an obviously relevant passage above an irrelevant one (English)', async () => {
      const results = await reranker.rerank('How many weeks of paid parental leave do employees get?', EN_DOCS);
      expect(results[0]?.id).toBe('leave');
      const score = (id: string) => results.find((r) => r.id === id)?.score ?? -1;
      expect(score('leave')).toBeGreaterThan(score('retention'));
    });

    it('ranks an obviously relevant passage above an irrelevant one (Korean)', async () => {
      const results = await reranker.rerank('출산장려금 지급', KO_DOCS);
      expect(results[0]?.id).toBe('ko-incentive');
      expect(results[0]?.score ?? 0).toBeGreaterThan(results[1]?.score ?? 1);
    });

    it('scores an empty list to an empty list', async () => {
      expect(await reranker.rerank('anything', [])).toEqual([]);
    });

    it('is deterministic', async () => {
      const a = await reranker.rerank('parental leave', EN_DOCS);
      const b = await reranker.rerank('parental leave', EN_DOCS);
      expect(b).toEqual(a);
    });

    it('rejects with the reason of an already aborted signal', async () => {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      controller.abort(reason);
      await expect(reranker.rerank('parental leave', EN_DOCS, controller.signal)).rejects.toBe(reason);
    });
  });
}
