import { PermanentError } from '../errors.ts';
import { l2Normalise, type Embedder } from './embedder.ts';

/** Options of the weight-free feature-hashing embedder. */
export interface HashEmbedderOptions {
  /**
   * Vector length.
   * @defaultValue 512
   */
  dimension?: number;
  /**
   * Shortest character n-gram.
   * @defaultValue 2
   */
  minGram?: number;
  /**
   * Longest character n-gram.
   * @defaultValue 4
   */
  maxGram?: number;
  /**
   * Also hash adjacent word pairs of non-Hangul text ("cookie header").
   * @defaultValue true
   */
  wordBigrams?: boolean;
  /**
   * Weight of a word feature relative to a character n-gram. A word yields one feature but
   * ~3×its length n-grams, so without a boost exact words would barely count.
   * @defaultValue 2
   */
  wordWeight?: number;
}

/**
 * Hangul syllables and compatibility jamo. Spaces between two of these are dropped before any
 * feature is computed, because Korean spacing is optional in practice ("출산 장려금" and
 * "출산장려금" are the same term) and must not move the vector.
 */
const HANGUL_GAP = /(?<=[\uAC00-\uD7A3\u3131-\u318E])\s+(?=[\uAC00-\uD7A3\u3131-\u318E])/gu;
const HANGUL = /[\uAC00-\uD7A3\u3131-\u318E]/u;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Distinct start states keep a word "ab" and the character bigram "ab" apart. */
const CHAR_SEED = fnvStep(FNV_OFFSET, 0x01);
const WORD_SEED = fnvStep(FNV_OFFSET, 0x02);
const BIGRAM_SEED = fnvStep(FNV_OFFSET, 0x03);
/** Word-boundary markers, so prefixes and suffixes get their own n-grams (fastText style). */
const BEGIN = 0x1c;
const END = 0x1d;
/** How many texts to embed between two yields to the event loop (lock renewals, timers). */
const YIELD_EVERY = 64;

function fnvStep(h: number, codeUnit: number): number {
  return Math.imul(h ^ codeUnit, FNV_PRIME);
}

function fnvString(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = fnvStep(h, s.charCodeAt(i));
  return h;
}

/** murmur3 fmix32: FNV's low bits are weak, and both the bucket and the sign come from them. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/**
 * The text the hash embedder actually sees: NFKC, lower case, no whitespace inside Hangul runs.
 * Exported so callers (and tests) can check that two spellings really are the same to it.
 */
export function normaliseForHashing(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(HANGUL_GAP, '');
}

function countInto(counts: Map<number, number>, key: number): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/**
 * Creates the default embedder: deterministic feature hashing with no model weights.
 *
 * Features are (a) character n-grams of every word (letters, digits and marks; Hangul runs are
 * one word once their inner spaces are removed) with boundary markers, and (b) word unigrams and
 * bigrams of non-Hangul text. Each feature is hashed with FNV-1a + murmur3 finaliser into a
 * bucket and a sign (signed hashing keeps collisions unbiased), weighted by sublinear term
 * frequency `1 + ln(tf)`, and the vector is L2-normalised. The same text gives the same vector
 * on every machine and Node version.
 *
 * @throws PermanentError `INVALID_CONFIG` for a non-positive dimension or an empty n-gram range.
 */
export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimension = options.dimension ?? 512;
  const minGram = options.minGram ?? 2;
  const maxGram = options.maxGram ?? 4;
  const wordBigrams = options.wordBigrams ?? true;
  const wordWeight = options.wordWeight ?? 2;
  if (!Number.isInteger(dimension) || dimension < 2) {
    throw new PermanentError('INVALID_CONFIG', `hash embedder dimension must be an integer ≥ 2, got ${dimension}`);
  }
  if (!Number.isInteger(minGram) || !Number.isInteger(maxGram) || minGram < 1 || maxGram < minGram) {
    throw new PermanentError('INVALID_CONFIG', `hash embedder n-gram range ${minGram}..${maxGram} is empty`);
  }
  if (!(wordWeight >= 0)) throw new PermanentError('INVALID_CONFIG', `hash embedder wordWeight must be ≥ 0`);
  const model = `quarry-hash-v1/d${dimension}/g${minGram}-${maxGram}/${wordBigrams ? 'bi' : 'uni'}/w${wordWeight}`;

  // Reused across texts: one allocation per embedder, not per call.
  const charCounts = new Map<number, number>();
  const wordCounts = new Map<number, number>();

  function addWeighted(vector: Float32Array, counts: Map<number, number>, weight: number): void {
    for (const [key, tf] of counts) {
      const h = mix(key);
      const bucket = (h >>> 0) % dimension;
      const w = weight * (1 + Math.log(tf));
      vector[bucket] = (vector[bucket] as number) + (h < 0 ? -w : w);
    }
  }

  function embedOne(text: string): Float32Array {
    charCounts.clear();
    wordCounts.clear();
    const normalised = normaliseForHashing(text);
    let previousWord: string | null = null;
    for (const match of normalised.matchAll(WORD)) {
      const word = match[0];
      // Character n-grams over BEGIN word END, grown one code unit at a time from each start.
      const len = word.length + 2;
      for (let start = 0; start < len; start++) {
        let h = CHAR_SEED;
        for (let n = 1; n <= maxGram && start + n <= len; n++) {
          const pos = start + n - 1;
          const unit = pos === 0 ? BEGIN : pos === len - 1 ? END : word.charCodeAt(pos - 1);
          h = fnvStep(h, unit);
          if (n >= minGram) countInto(charCounts, h);
        }
      }
      if (HANGUL.test(word)) {
        // A Hangul run is a whole phrase after space removal; as a "word" it would never match.
        previousWord = null;
        continue;
      }
      countInto(wordCounts, fnvString(WORD_SEED, word));
      if (wordBigrams && previousWord !== null) {
        countInto(wordCounts, fnvString(fnvStep(fnvString(BIGRAM_SEED, previousWord), 0x20), word));
      }
      previousWord = word;
    }
    const vector = new Float32Array(dimension);
    addWeighted(vector, charCounts, 1);
    addWeighted(vector, wordCounts, wordWeight);
    return l2Normalise(vector);
  }

  return {
    model,
    dimension,
    async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) {
        if (i > 0 && i % YIELD_EVERY === 0) {
          // CPU-bound: give BullMQ lock renewals and timers a turn on long batches.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        signal?.throwIfAborted();
        out.push(embedOne(texts[i] as string));
      }
      return out;
    },
  };
}
