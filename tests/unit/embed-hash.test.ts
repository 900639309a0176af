import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { createHashEmbedder, normaliseForHashing } from '../../shared/embed/hash-embedder.ts';
import { createEmbedder } from '../../shared/embed/index.ts';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

describe('hash embedder', () => {
  const e = createHashEmbedder();

  it('defaults to 512 dimensions and names its settings', () => {
    expect(e.dimension).toBe(512);
    expect(e.model).toBe('quarry-hash-v1/d512/g2-4/bi/w2');
    expect(createHashEmbedder({ dimension: 64, wordBigrams: false }).model).toBe('quarry-hash-v1/d64/g2-4/uni/w2');
  });

  it('ignores spacing inside Hangul: "출산 장려금" and "출산장려금" embed the same', async () => {
    expect(normaliseForHashing('출산 장려금')).toBe('출산장려금');
    const [spaced, joined, particle, other] = await e.embed(['출산 장려금 지급', '출산장려금  지급', '출산장려금은 지급한다', '주택 청약 자격']);
    expect(dot(spaced!, joined!)).toBeCloseTo(1, 6);
    expect(dot(spaced!, particle!)).toBeGreaterThan(0.5);
    expect(dot(spaced!, other!)).toBeLessThan(0.2);
  });

  it('is NFKC- and case-insensitive and ranks related Latin text closer', async () => {
    const [a, b, c, d] = await e.embed(['COOKIE Header', 'cookie header', 'the cookie header field', 'quantum chromodynamics']);
    expect(dot(a!, b!)).toBeCloseTo(1, 6);
    expect(dot(b!, c!)).toBeGreaterThan(dot(b!, d!) + 0.3);
    const [full, half] = await e.embed(['ＡＢＣ１２３', 'abc123']);
    expect(dot(full!, half!)).toBeCloseTo(1, 6);
  });

  it('gives a zero vector for text with no letters or digits (the quality check rejects it)', async () => {
    const [v] = await e.embed([' .,;- ']);
    expect(v!.every((x) => x === 0)).toBe(true);
  });

  it('refuses bad options', () => {
    expect(() => createHashEmbedder({ dimension: 1 })).toThrow(PermanentError);
    expect(() => createHashEmbedder({ minGram: 3, maxGram: 2 })).toThrow(PermanentError);
    expect(createEmbedder({ provider: 'hash', dimension: 128 }).dimension).toBe(128);
  });

  it('embeds 1,000 chunk-sized texts quickly', async () => {
    const words = 'the cookie header field carries state 출산 장려금 지원 대상 주택 청약 신청 자격 요건 및 절차에 관한 사항'.split(' ');
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const texts = Array.from({ length: 1000 }, () => Array.from({ length: 450 }, () => words[Math.floor(rnd() * words.length)]).join(' '));
    const started = performance.now();
    const vectors = await e.embed(texts);
    const ms = performance.now() - started;
    console.info(`hash embed: 1000 texts × ~${Math.round(texts[0]!.length)} chars in ${ms.toFixed(0)} ms`);
    expect(vectors).toHaveLength(1000);
    // Generous bound for slow CI machines; ~0.3 s on a laptop core.
    expect(ms).toBeLessThan(5000);
  });
});
