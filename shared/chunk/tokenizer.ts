import { createRequire } from 'node:module';

type Cl100k = Pick<typeof import('gpt-tokenizer/encoding/cl100k_base'), 'countTokens' | 'isWithinTokenLimit'>;

let cl100k: Cl100k | undefined;

/**
 * gpt-tokenizer's cl100k_base, loaded on first use: its rank table costs a process ~35 MB of
 * RSS, and every worker process imports the worker registry (hence this module) while only the
 * chunk stage counts tokens. Loaded synchronously from the package's CommonJS build (same tables
 * as the ESM one).
 */
function tokenizer(): Cl100k {
  cl100k ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/cl100k_base') as Cl100k;
  return cl100k;
}

/** Counts tokens of a text. The only thing the chunker needs from a tokenizer. */
export interface TokenCounter {
  /** Number of tokens `text` encodes to; 0 for the empty string. */
  count(text: string): number;
  /**
   * `count(text)` when that is at most `limit`; otherwise some number over `limit`, found without
   * reading the whole text where the counter can stop early. Absent: {@link countWithin} counts all.
   */
  countWithin?(text: string, limit: number): number;
}

/**
 * Tokens of `text` when they are at most `limit`, else a number over `limit` (see
 * {@link TokenCounter.countWithin}): all a caller that only compares against `limit` needs.
 */
export function countWithin(counter: TokenCounter, text: string, limit: number): number {
  return counter.countWithin ? counter.countWithin(text, limit) : counter.count(text);
}

/**
 * Treat `<|endoftext|>` and friends as plain text: a PDF may contain them literally, and the
 * library's default is to throw on them.
 */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The cl100k_base BPE tokenizer (OpenAI's text-embedding-3 / GPT-4 vocabulary) from
 * `gpt-tokenizer`. Exact counts for OpenAI embedders and a close, honest estimate for others
 * (Korean runs ≈ 0.9 tokens per Hangul syllable, English ≈ 0.3 per character) — better than
 * the seed's `chars / 1.5`, which is off by 2–3× for English.
 *
 * No per-text cache is kept here: chunk texts rarely repeat, and a book's worth of cached
 * strings would cost more memory than recounting (counting runs at ~10–30 MB/s). The library
 * keeps its own bounded merge cache.
 */
export function createCl100kCounter(): TokenCounter {
  const count = (text: string): number => (text.length === 0 ? 0 : tokenizer().countTokens(text, PLAIN_TEXT));
  return {
    count,
    countWithin(text: string, limit: number): number {
      // A token is at least one UTF-8 byte: a text of at most `limit` bytes is counted whole
      // (the plain count is the faster loop); a longer one stops at the first token over the limit.
      if (Buffer.byteLength(text) <= limit) return count(text);
      const within = tokenizer().isWithinTokenLimit(text, limit, PLAIN_TEXT);
      return within === false ? limit + 1 : within;
    },
  };
}

/**
 * A crude, dependency-free estimate (1 token per 4 Latin characters, 1 per CJK/Hangul
 * character), for tests that want counts they can compute by hand.
 */
export function createCharEstimateCounter(): TokenCounter {
  return {
    count(text: string): number {
      let wide = 0;
      let narrow = 0;
      for (const ch of text) {
        const cp = ch.codePointAt(0) ?? 0;
        if (cp >= 0x1100) wide += 1;
        else narrow += 1;
      }
      return wide + Math.ceil(narrow / 4);
    },
  };
}
