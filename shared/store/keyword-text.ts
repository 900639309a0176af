import { americanSpelling } from './spelling.ts';

/**
 * Scripts written without reliable spaces: Hangul (syllables + compatibility jamo), kana and CJK
 * ideographs. Spacing inside them is dropped and they are indexed as character bigrams, so
 * "출산 장려금", "출산장려금" and "출산장려금은" share their terms (출산 산장 장려 려금).
 */
function isSpaceless(cp: number): boolean {
  return (
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0x3131 && cp <= 0x318e) ||
    (cp >= 0x3040 && cp <= 0x30ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x20000 && cp <= 0x2ffff)
  );
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const SPACE = /\s/u;

function isWordChar(cp: number, ch: string): boolean {
  // ASCII fast path: the regex is only needed for the rest of Unicode.
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a);
  return WORD_CHAR.test(ch);
}

function isSpace(cp: number, ch: string): boolean {
  if (cp < 0x80) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d);
  return SPACE.test(ch);
}

/** Names of the Greek letters science writes alone ("TNF-α", "β-cell", "IFNγ"), after lower-casing. */
const GREEK_NAMES: Readonly<Record<string, string>> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta', ι: 'iota', κ: 'kappa',
  λ: 'lambda', μ: 'mu', ν: 'nu', ξ: 'xi', ο: 'omicron', π: 'pi', ρ: 'rho', σ: 'sigma', ς: 'sigma', τ: 'tau', υ: 'upsilon',
  φ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};

/** A Greek letter with no Greek letter beside it: a symbol in Latin text, not a Greek word. */
const LONE_GREEK = /(?<![\u0370-\u03ff\u1f00-\u1fff])[\u03b1-\u03c9](?![\u0370-\u03ff\u1f00-\u1fff])/gu;

/**
 * Spells out every lower-case Greek letter that stands alone in `text` ("tnf-α" → "tnf-alpha",
 * "β-cell" → "beta-cell", "ifnγ" → "ifngamma"), as Latin-script writers spell them; Greek words
 * (two or more Greek letters in a row) stay as they are.
 */
export function spellOutLoneGreek(text: string): string {
  return text.replace(LONE_GREEK, (ch) => GREEK_NAMES[ch] ?? ch);
}

/** Hyphens that join the parts of one name ("GATA-3", "COVID-19"); not the dashes of ranges ("10–20"). */
function isHyphen(cp: number): boolean {
  return cp === 0x2d || cp === 0x2010 || cp === 0x2011;
}

/** The letter and digit runs of a word ("gata3" → gata, 3), or [] when it has only one. */
function alnumParts(word: string): string[] {
  // Most words are ASCII letters only: no regex for them.
  let ascii = true;
  let digit = false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 0x80) ascii = false;
    else if (c >= 0x30 && c <= 0x39) digit = true;
  }
  if (ascii && !digit) return [];
  const parts = word.match(/\p{N}+|[^\p{N}]+/gu) ?? [];
  return parts.length > 1 ? parts : [];
}

/** True when `joined` has a digit and something that is not one. */
function mixesDigits(joined: string): boolean {
  return /\p{N}/u.test(joined) && /[^\p{N}]/u.test(joined);
}

/**
 * The text every store's keyword index sees (LanceDB column and Weaviate property `keyword_text`), and the query text the
 * keyword side searches with: NFKC, lower case, Latin words kept whole (the index's tokenizer
 * stems them), Hangul/CJK runs turned into overlapping character bigrams with inner whitespace
 * removed (a one-character run stays a unigram). Applying the same function to documents and
 * queries is what makes Korean matching robust to spacing and particles.
 *
 * Names written in several ways match each other: a word mixing letters and digits adds its
 * letter and digit runs ("gata3" → gata3 gata 3), a hyphenated name of letters and digits adds
 * its parts joined ("gata-3" → gata 3 gata3, "covid-19" → covid 19 covid19; not "20-40"), and a
 * Greek letter standing alone in Latin text is spelled out ("tnf-α" → tnf alpha, as "TNF-alpha").
 * British spellings are written the American way ("tumour" → tumor, "ischaemic" → ischemic,
 * "randomised" → randomized: {@link americanSpelling}), so either finds the other.
 */
export function keywordText(text: string): string {
  return keywordTerms(text, false);
}

/**
 * {@link keywordText} of a query: the same terms, plus a word's own spelling wherever
 * {@link americanSpelling} changed it ("tumour" → tumor tumour). Rows written before the spelling
 * fold keep "tumour" in their keyword text until they are written again, and a query must still
 * find them; in rows written since, the original spelling matches nothing and adds nothing.
 */
export function keywordQueryText(text: string): string {
  return keywordTerms(text, true);
}

function keywordTerms(text: string, keepOriginalSpelling: boolean): string {
  const normalised = spellOutLoneGreek(text.normalize('NFKC').toLowerCase());
  const terms: string[] = [];
  // The current Latin word is normalised.slice(wordStart, i); -1 when there is none. Indices, not
  // a string built a character at a time: a book's keyword text is millions of characters.
  let wordStart = -1;
  // The hyphen-joined words of the current name, and whether the last character was its hyphen.
  const chain: string[] = [];
  let afterHyphen = false;
  // The current spaceless run: its last character, and whether it is still one character long.
  let runLast: string | null = null;
  let runSingle = false;

  const endRun = (): void => {
    if (runLast !== null && runSingle) terms.push(runLast);
    runLast = null;
  };
  const endWord = (end: number): void => {
    if (wordStart < 0) return;
    const written = normalised.slice(wordStart, end);
    wordStart = -1;
    const word = americanSpelling(written);
    terms.push(word);
    if (keepOriginalSpelling && written !== word) terms.push(written);
    for (const part of alnumParts(word)) terms.push(part);
    chain.push(word);
  };
  const endChain = (end: number): void => {
    endWord(end);
    // Only names of letters and digits: joining plain words ("cookie-header") lowered SciFact
    // train, and a range of numbers ("20-40") is no name.
    if (chain.length > 1) {
      const joined = chain.join('');
      if (mixesDigits(joined)) terms.push(joined);
    }
    chain.length = 0;
    afterHyphen = false;
  };

  for (let i = 0; i < normalised.length; ) {
    let cp = normalised.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < normalised.length) {
      const low = normalised.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const ch = cp < 0x80 ? '' : normalised.slice(i, i + width);
    if (cp >= 0x80 && isSpaceless(cp)) {
      endChain(i);
      if (runLast === null) {
        runSingle = true;
      } else {
        terms.push(runLast + ch);
        runSingle = false;
      }
      runLast = ch;
    } else if (isSpace(cp, ch)) {
      // Whitespace ends a Latin word but not a spaceless run: the run resumes if the next
      // non-space character is spaceless too.
      endChain(i);
    } else if (isWordChar(cp, ch)) {
      endRun();
      afterHyphen = false;
      if (wordStart < 0) wordStart = i;
    } else if (isHyphen(cp) && wordStart >= 0 && !afterHyphen) {
      endWord(i);
      endRun();
      afterHyphen = true;
    } else {
      endChain(i);
      endRun();
    }
    i += width;
  }
  endChain(normalised.length);
  endRun();
  return terms.join(' ');
}

/**
 * How many times a chunk's section heading is written before its embedding text in the keyword
 * text ({@link chunkKeywordText}), on top of the once the breadcrumb already gives it: BM25F's
 * title weight, approximated by repetition, so a query word in the heading counts about four
 * times as much as in the body (the heading's terms also make the chunk a little longer). SciFact
 * train, heading = title, keyword nDCG@10: 0 extra 0.707, 1 extra 0.711, 2 extra 0.713,
 * 3 extra 0.715, 5 extra 0.712.
 */
export const HEADING_REPEATS = 3;

/**
 * The keyword text a store indexes for a chunk: {@link keywordText} of its section heading,
 * {@link HEADING_REPEATS} times, then of its embedding text (breadcrumb + body). Both stores call
 * this, so LanceDB's `keyword_text` column and Weaviate's `keyword_text` property stay the same.
 */
export function chunkKeywordText(chunk: { section: string; embedding_text: string }): string {
  const heading = keywordText(chunk.section);
  const text = keywordText(chunk.embedding_text);
  return heading === '' ? text : `${`${heading} `.repeat(HEADING_REPEATS)}${text}`;
}
