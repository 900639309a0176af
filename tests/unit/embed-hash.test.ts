import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import { createHashEmbedder, HASH_STOP_WORDS, normaliseForHashing } from '../../shared/embed/hash-embedder.ts';
import { createEmbedder } from '../../shared/embed/index.ts';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

describe('hash embedder', () => {
  const e = createHashEmbedder();

  it('gives every text the very vector v2 always gave it: stored vectors and new query vectors must agree bit for bit', async () => {
    // Digests of vectors written by the first v2 release; a change here needs a new model name.
    const texts = [
      'Tumor necrosis factor alpha (TNF-α) levels rose in 12 of 20 patients.',
      '출산 장려금은 신청일로부터 30일 이내에 지급한다.',
      Array.from({ length: 3000 }, (_, i) => `term${i * 7919}`).join(' '),
    ];
    const digests = (await e.embed(texts)).map((v) => createHash('sha256').update(new Uint8Array(v.buffer)).digest('hex').slice(0, 16));
    expect(digests).toEqual(['93dfe597bafbda83', '0fef24045912776b', '81095b9d21adb6b7']);
  });

  it('defaults to 512 dimensions and names its settings (v2: a new name, so v1 vectors are never reused)', () => {
    expect(e.dimension).toBe(512);
    expect(e.model).toBe('quarry-hash-v2/d512/g3-5/h2/bi/w2/stop');
    expect(createHashEmbedder({ dimension: 64, wordBigrams: false, stopWords: false }).model).toBe('quarry-hash-v2/d64/g3-5/h2/uni/w2/all');
  });

  it('skips English function words, and a word pair never spans one', async () => {
    expect(HASH_STOP_WORDS.has('the')).toBe(true);
    const [ofThe, the, bare] = await e.embed(['The role of the aspirin', 'role the aspirin', 'role aspirin']);
    // Both are "role", "aspirin" and no pair; "role aspirin" also has the pair "role aspirin".
    expect(dot(ofThe!, the!)).toBeCloseTo(1, 6);
    expect(dot(ofThe!, bare!)).toBeLessThan(0.99);
    const all = createHashEmbedder({ stopWords: false });
    const [a, b] = await all.embed(['the aspirin', 'aspirin']);
    expect(dot(a!, b!)).toBeLessThan(0.9);
    const [c, d] = await e.embed(['the aspirin', 'aspirin']);
    expect(dot(c!, d!)).toBeCloseTo(1, 6);
  });

  it('embeds a text of function words only as if it had no stop list (never a zero vector)', async () => {
    const [onlyStops, other] = await e.embed(['What is it?', 'Is it what?']);
    const [unfiltered] = await createHashEmbedder({ stopWords: false }).embed(['What is it?']);
    expect(onlyStops!.some((x) => x !== 0)).toBe(true);
    expect(dot(onlyStops!, unfiltered!)).toBeCloseTo(1, 6);
    expect(dot(onlyStops!, other!)).toBeLessThan(0.999);
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
    expect(() => createHashEmbedder({ hangulMinGram: 0 })).toThrow(PermanentError);
    expect(() => createHashEmbedder({ hangulMinGram: 6 })).toThrow(PermanentError);
    expect(createEmbedder({ provider: 'hash', dimension: 128 }).dimension).toBe(128);
  });

  it('embeds 1,000 chunk-sized texts in one call, each a unit vector (speed: npm run bench)', async () => {
    const words = 'the cookie header field carries state 출산 장려금 지원 대상 주택 청약 신청 자격 요건 및 절차에 관한 사항'.split(' ');
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const texts = Array.from({ length: 1000 }, () => Array.from({ length: 450 }, () => words[Math.floor(rnd() * words.length)]).join(' '));
    const vectors = await e.embed(texts);
    expect(vectors).toHaveLength(1000);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });
});
