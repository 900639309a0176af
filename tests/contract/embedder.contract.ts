import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../shared/embed/embedder.ts';

const TEXTS = [
  '출산장려금은 자녀를 출산한 가구에 지급한다.',
  'The Cookie header field carries stored state.',
  '제3조(지원 대상) 이 조례에 따른 지원 대상은 다음과 같다.',
  'Set-Cookie attributes: Expires, Max-Age, Domain.',
  'x',
];

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

/**
 * The Embedder contract. `setup` returns a ready embedder and a teardown (for adapters that need
 * a server); every adapter must pass it.
 */
export function runEmbedderContract(name: string, setup: () => Promise<{ embedder: Embedder; teardown(): Promise<void> }>): void {
  describe(`Embedder contract: ${name}`, () => {
    let embedder: Embedder;
    let teardown: () => Promise<void>;
    beforeAll(async () => {
      ({ embedder, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
    });

    it('names its model and returns vectors of its dimension', async () => {
      expect(embedder.model.length).toBeGreaterThan(0);
      const vectors = await embedder.embed(TEXTS);
      expect(vectors).toHaveLength(TEXTS.length);
      for (const v of vectors) {
        expect(v).toBeInstanceOf(Float32Array);
        expect(v.length).toBe(embedder.dimension);
      }
    });

    it('returns unit vectors', async () => {
      for (const v of await embedder.embed(TEXTS)) expect(norm(v)).toBeCloseTo(1, 5);
    });

    it('is deterministic', async () => {
      const first = await embedder.embed(TEXTS);
      const second = await embedder.embed(TEXTS);
      expect(second.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    });

    it('keeps batch order: a batch equals the texts embedded one by one', async () => {
      const batch = await embedder.embed([...TEXTS].reverse());
      const single = await Promise.all([...TEXTS].reverse().map(async (t) => (await embedder.embed([t]))[0] as Float32Array));
      batch.forEach((v, i) => {
        expect(Array.from(v)).toEqual(Array.from(single[i] as Float32Array));
      });
    });

    it('embeds an empty list to an empty list', async () => {
      expect(await embedder.embed([])).toEqual([]);
    });
  });
}
