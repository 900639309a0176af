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
   * Shortest character n-gram of a non-Hangul word. Bigrams of Latin letters ("th", "in") are in
   * nearly every word and only blur the vector.
   * @defaultValue 3
   */
  minGram?: number;
  /**
   * Longest character n-gram (of Hangul runs too).
   * @defaultValue 5
   */
  maxGram?: number;
  /**
   * Shortest character n-gram of a Hangul run. Two syllables are the usual Korean word, and a
   * run is a whole phrase once its spaces are removed, so its terms are found by short n-grams.
   * @defaultValue 2
   */
  hangulMinGram?: number;
  /**
   * Drop English function words ("the", "of", "which" — {@link HASH_STOP_WORDS}) before hashing:
   * they are in every text, carry no meaning and, with no corpus statistics to down-weight them,
   * would dominate every vector.
   * @defaultValue true
   */
  stopWords?: boolean;
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

/**
 * English function words the hash embedder skips (no n-grams, no word feature, and a word pair
 * never spans one). A fixed list rather than corpus statistics: a chunk is embedded alone, and a
 * query must get the same features as the passage that holds it.
 */
export const HASH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am among an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each either few for from further had has have having he her here hers herself him himself his how ' +
    'however i if in into is it its itself just may me might more most must my myself neither no nor not now of off on once only or other ' +
    'our ours ourselves out over own per same shall she should so some such than that the their theirs them themselves then there these ' +
    'they this those through thus to too under until up upon very via was we were what when where whether which while who whom why will ' +
    'with within without would you your yours yourself yourselves'
  ).split(' '),
);

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

/**
 * Occurrences per feature hash, kept in first-seen order (the order the vector's float sums are
 * taken in, so the result is bit for bit what a `Map` gives): an open-addressing table of int32
 * keys, ~5× faster than a `Map` for the ~3,000 features of a 1,500-character chunk. Reused across
 * texts; `clear` costs the features of the last text, not the table.
 */
interface FeatureCounts {
  add(key: number): void;
  clear(): void;
  readonly size: number;
  /** Calls `fn` for each feature, in first-seen order. */
  forEach(fn: (key: number, count: number) => void): void;
}

function createFeatureCounts(): FeatureCounts {
  let bits = 12;
  let keys = new Int32Array(1 << bits);
  let counts = new Int32Array(1 << bits);
  let order = new Int32Array(1 << (bits - 1));
  let size = 0;
  const slotOf = (key: number): number => {
    const mask = (1 << bits) - 1;
    let slot = Math.imul(key, 0x9e3779b1) >>> (32 - bits);
    while (counts[slot] !== 0 && keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  };
  const grow = (): void => {
    const oldKeys = keys;
    const oldCounts = counts;
    const oldOrder = order.subarray(0, size);
    bits += 1;
    keys = new Int32Array(1 << bits);
    counts = new Int32Array(1 << bits);
    order = new Int32Array(1 << (bits - 1));
    oldOrder.forEach((oldSlot, i) => {
      const slot = slotOf(oldKeys[oldSlot] as number);
      keys[slot] = oldKeys[oldSlot] as number;
      counts[slot] = oldCounts[oldSlot] as number;
      order[i] = slot;
    });
  };
  return {
    add(key) {
      let slot = slotOf(key);
      if (counts[slot] === 0) {
        // At most half full, so probes stay short.
        if (size === order.length) {
          grow();
          slot = slotOf(key);
        }
        keys[slot] = key;
        order[size++] = slot;
      }
      counts[slot] = (counts[slot] as number) + 1;
    },
    clear() {
      for (let i = 0; i < size; i++) counts[order[i] as number] = 0;
      size = 0;
    },
    get size() {
      return size;
    },
    forEach(fn) {
      for (let i = 0; i < size; i++) {
        const slot = order[i] as number;
        fn(keys[slot] as number, counts[slot] as number);
      }
    },
  };
}

/**
 * Creates the default embedder: deterministic feature hashing with no model weights.
 *
 * Features are (a) character n-grams of every word (letters, digits and marks; Hangul runs are
 * one word once their inner spaces are removed) with boundary markers — 3..5 code units for other
 * scripts, 2..5 for Hangul — and (b) word unigrams and bigrams of non-Hangul text. English
 * function words ({@link HASH_STOP_WORDS}) are skipped and end a word pair. Each feature is
 * hashed with FNV-1a + murmur3 finaliser into a bucket and a sign (signed hashing keeps
 * collisions unbiased), weighted by sublinear term frequency `1 + ln(tf)`, and the vector is
 * L2-normalised. The same text gives the same vector on every machine and Node version.
 *
 * v2 (stop words, no Latin character bigrams) over v1 (`quarry-hash-v1/…`, 2..4-grams of every
 * word): SciFact train nDCG@10 of vector search alone 0.391 → 0.493 at the same 512 dimensions.
 * Its `model` name differs, so no v1 vector is served from the embedding cache; vectors already
 * in a store are not rewritten — re-ingest (docs/evaluation.md, hash embedder v2).
 *
 * @throws PermanentError `INVALID_CONFIG` for a non-positive dimension or an empty n-gram range.
 */
export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimension = options.dimension ?? 512;
  const minGram = options.minGram ?? 3;
  const maxGram = options.maxGram ?? 5;
  const hangulMinGram = options.hangulMinGram ?? 2;
  const stopWords = options.stopWords ?? true;
  const wordBigrams = options.wordBigrams ?? true;
  const wordWeight = options.wordWeight ?? 2;
  if (!Number.isInteger(dimension) || dimension < 2) {
    throw new PermanentError('INVALID_CONFIG', `hash embedder dimension must be an integer ≥ 2, got ${dimension}`);
  }
  for (const low of [minGram, hangulMinGram]) {
    if (!Number.isInteger(low) || !Number.isInteger(maxGram) || low < 1 || maxGram < low) {
      throw new PermanentError('INVALID_CONFIG', `hash embedder n-gram range ${low}..${maxGram} is empty`);
    }
  }
  if (!(wordWeight >= 0)) throw new PermanentError('INVALID_CONFIG', `hash embedder wordWeight must be ≥ 0`);
  // v2: stop words, per-script n-gram floors. The name keys the embedding cache, so v1 vectors are never reused.
  const model = `quarry-hash-v2/d${dimension}/g${minGram}-${maxGram}/h${hangulMinGram}/${wordBigrams ? 'bi' : 'uni'}/w${wordWeight}/${stopWords ? 'stop' : 'all'}`;

  // Reused across texts: one allocation per embedder, not per call.
  const charCounts = createFeatureCounts();
  const wordCounts = createFeatureCounts();

  function addWeighted(vector: Float32Array, counts: FeatureCounts, weight: number): void {
    counts.forEach((key, tf) => {
      const h = mix(key);
      const bucket = (h >>> 0) % dimension;
      const w = weight * (1 + Math.log(tf));
      vector[bucket] = (vector[bucket] as number) + (h < 0 ? -w : w);
    });
  }

  /** Counts the features of `text` into charCounts and wordCounts (cleared first). */
  function countFeatures(normalised: string, skipStopWords: boolean): void {
    charCounts.clear();
    wordCounts.clear();
    let previousWord: string | null = null;
    for (const match of normalised.matchAll(WORD)) {
      const word = match[0];
      const hangul = HANGUL.test(word);
      if (!hangul && skipStopWords && HASH_STOP_WORDS.has(word)) {
        // A function word neither counts nor links its neighbours into a word pair.
        previousWord = null;
        continue;
      }
      const low = hangul ? hangulMinGram : minGram;
      // Character n-grams over BEGIN word END, grown one code unit at a time from each start.
      const len = word.length + 2;
      for (let start = 0; start < len; start++) {
        let h = CHAR_SEED;
        for (let n = 1; n <= maxGram && start + n <= len; n++) {
          const pos = start + n - 1;
          const unit = pos === 0 ? BEGIN : pos === len - 1 ? END : word.charCodeAt(pos - 1);
          h = fnvStep(h, unit);
          if (n >= low) charCounts.add(h);
        }
      }
      if (hangul) {
        // A Hangul run is a whole phrase after space removal; as a "word" it would never match.
        previousWord = null;
        continue;
      }
      wordCounts.add(fnvString(WORD_SEED, word));
      if (wordBigrams && previousWord !== null) {
        wordCounts.add(fnvString(fnvStep(fnvString(BIGRAM_SEED, previousWord), 0x20), word));
      }
      previousWord = word;
    }
  }

  function embedOne(text: string): Float32Array {
    const normalised = normaliseForHashing(text);
    countFeatures(normalised, stopWords);
    // A text of function words only ("what is it?") still gets a direction: counted as words.
    if (stopWords && charCounts.size === 0 && wordCounts.size === 0) countFeatures(normalised, false);
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
