import type { TextLine } from '../domain/index.ts';

// Soft hyphen, zero-width space, word joiner, BOM/ZWNBSP and C0/C1 controls: invisible in print,
// harmful to search. ZWJ/ZWNJ stay: they carry meaning in emoji, Persian and Indic scripts.
const INVISIBLE = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u200B\u2060\uFEFF]/g;
const SPACES = /[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]+/g;
// Compatibility characters worth folding: long s, Latin/Armenian ligatures (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ),
// Arabic presentation forms and full-width ASCII. Whole-text NFKC is avoided on purpose: it
// would turn ① into 1 and the Hangul compatibility letters used in Korean law (ㆍ, ㄱ) into
// conjoining jamo.
const COMPATIBILITY = /[\u017F\uFB00-\uFB06\uFB13-\uFB17\uFB50-\uFDFF\uFE70-\uFEFC\uFF01-\uFF5E]/g;

// TeX-built accents arrive as a spacing accent before the letter ("na¨ıve"); rebuilt as the
// combining accent after it (dotless ı back to i), so NFC gives "naïve".
const SPACING_ACCENT: Record<string, string> = {
  '\u00A8': '\u0308',
  '\u00B4': '\u0301',
  '\u02C6': '\u0302',
  '\u02DC': '\u0303',
  '\u02C7': '\u030C',
  '\u02DA': '\u030A',
};
const TEX_ACCENT = /([\u00A8\u00B4\u02C6\u02DC\u02C7\u02DA])([A-Za-z\u0131])/g;

/**
 * Cleans one line of PDF text: invisible characters removed, ligatures and other compatibility
 * forms folded, NFC composition (so decomposed Hangul jamo become syllables), whitespace folded.
 */
export function normaliseText(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .replace(COMPATIBILITY, (c) => c.normalize('NFKC'))
    .replace(TEX_ACCENT, (_, accent: string, letter: string) => (letter === '\u0131' ? 'i' : letter) + (SPACING_ACCENT[accent] ?? ''))
    .normalize('NFC')
    .replace(SPACES, ' ')
    .trim();
}

// A word broken at the line end: a letter, then a hyphen (ASCII or U+2010).
const TRAILING_HYPHEN = /(\p{L})[-\u2010]$/u;
const LEADING_LOWER = /^\p{Ll}/u;
const FIRST_WORD = /^(\S+)\s*/u;

/**
 * Joins words hyphenated across a line break ("exam-" / "ple is" → "example" / "is") when the
 * next line starts in lower case. The joined fragment moves up so each line keeps its position;
 * a line left empty is dropped. Hyphens inside a line ("e-mail") are never touched. Each line also
 * keeps its `width`: that is where it was printed, and the fragment still sits at the start of the
 * next printed line, so a highlight of both lines covers the whole word.
 */
export function joinHyphenatedLines(lines: readonly TextLine[]): TextLine[] {
  const out: TextLine[] = lines.map((l) => ({ ...l }));
  for (let i = 0; i + 1 < out.length; i++) {
    const line = out[i];
    const next = out[i + 1];
    if (!line || !next || !TRAILING_HYPHEN.test(line.text) || !LEADING_LOWER.test(next.text)) continue;
    const match = FIRST_WORD.exec(next.text);
    if (!match?.[1]) continue;
    line.text = line.text.slice(0, -1) + match[1];
    next.text = next.text.slice(match[0].length);
  }
  return out.filter((l) => l.text.length > 0);
}
