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

/**
 * The text every store's keyword index sees (LanceDB column and Weaviate property `keyword_text`), and the query text the
 * keyword side searches with: NFKC, lower case, Latin words kept whole (the index's tokenizer
 * stems them), Hangul/CJK runs turned into overlapping character bigrams with inner whitespace
 * removed (a one-character run stays a unigram). Applying the same function to documents and
 * queries is what makes Korean matching robust to spacing and particles.
 */
export function keywordText(text: string): string {
  const normalised = text.normalize('NFKC').toLowerCase();
  const terms: string[] = [];
  let word = '';
  // The current spaceless run: its last character, and whether it is still one character long.
  let runLast: string | null = null;
  let runSingle = false;

  const endRun = (): void => {
    if (runLast !== null && runSingle) terms.push(runLast);
    runLast = null;
  };
  const endWord = (): void => {
    if (word) terms.push(word);
    word = '';
  };

  for (const ch of normalised) {
    const cp = ch.codePointAt(0) as number;
    if (isSpaceless(cp)) {
      endWord();
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
      endWord();
    } else if (isWordChar(cp, ch)) {
      endRun();
      word += ch;
    } else {
      endWord();
      endRun();
    }
  }
  endWord();
  endRun();
  return terms.join(' ');
}
