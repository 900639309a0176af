import { createRequire } from 'node:module';

type CountTokens = typeof import('gpt-tokenizer/encoding/cl100k_base').countTokens;

let cl100k: CountTokens | undefined;

/**
 * gpt-tokenizer's cl100k_base, loaded on first use: its rank table costs a process ~35 MB of
 * RSS, and every worker process imports the worker registry (hence this module) while only the
 * chunk stage counts tokens. Loaded synchronously from the package's CommonJS build (same tables
 * as the ESM one).
 */
function countTokens(...args: Parameters<CountTokens>): number {
  cl100k ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/cl100k_base') as { countTokens: CountTokens }).countTokens;
  return cl100k(...args);
}

/** Counts tokens of a text. The only thing the chunker needs from a tokenizer. */
export interface TokenCounter {
  /** Number of tokens `text` encodes to; 0 for the empty string. */
  count(text: string): number;
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
  return {
    count(text: string): number {
      return text.length === 0 ? 0 : countTokens(text, PLAIN_TEXT);
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
