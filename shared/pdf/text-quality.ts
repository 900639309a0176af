import type { Page } from '../domain/index.ts';
import { PermanentError } from '../errors.ts';

/** What counts as a garbled (mojibake) text layer. */
export interface TextQualityOptions {
  /** A page is garbled when at least this share of its non-space characters is in garbage tokens. @defaultValue 0.5 */
  pageGarbledShare: number;
  /** The document fails when at least this share of all its non-space characters is garbage. @defaultValue 0.6 */
  documentGarbledShare: number;
  /** Fewer non-space characters than this on a page say nothing either way. @defaultValue 20 */
  minPageChars: number;
}

const DEFAULTS: TextQualityOptions = { pageGarbledShare: 0.5, documentGarbledShare: 0.6, minPageChars: 20 };

/** The verdict on a text layer. */
export interface TextQuality {
  /** Non-space characters looked at. */
  chars: number;
  /** Of those, characters in tokens that read as garbage. */
  garbageChars: number;
  /** 1-based numbers of pages that are mostly garbage. */
  garbledPages: number[];
}

// Characters no decoded text contains: the replacement character, private-use code points (a
// symbol font's glyph codes), controls, unassigned and lone surrogates.
const NEVER_TEXT = /[\uFFFD\p{Co}\p{Cc}\p{Cn}\p{Cs}]/u;
// UTF-8 read as Latin-1/cp1252: a lead byte shown as Ã Â â Ð Ñ … followed by a continuation byte
// shown as one of U+0080–U+00BF or the cp1252 punctuation there ("Ã©", "â€™", "Ã¼").
const UTF8_AS_LATIN1 = /[ÂÃÄÅÆÇÐÑâãäåæçèéêëìíîïðñ][\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013\u2014\u2018-\u201E\u2020-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]/u;
// Punctuation that legitimately sits inside a token: joiners of words, numbers and identifiers
// ("e-mail", "U.S.", "1,234.5", "ID.AM-1", "10:30", "and/or", "R&D", "§3") and CJK punctuation.
const JOINERS = /[-‐‑–—'’.,:;/&_§#%+()[\]{}"“”‘·・、。，．：；「」『』（）〔〕【】〈〉《》!?~]/u;
// What may lead or trail a word or figure: punctuation, currency, signs and units ("($1.2)", "±0.5%").
const EDGE = /^[\p{P}$€£¥₩%°±+−~<>=≤≥]+|[\p{P}$€£¥₩%°±+−~<>=≤≥]+$/gu;

/** Length in code points. */
function size(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * True when a whitespace-free token reads as garbage rather than a word, a number or an
 * identifier: it holds a character no decoded text has, a UTF-8-as-Latin-1 pair, mostly
 * Latin-1 supplement characters (a double-byte CJK encoding read as Latin-1: "±Ù·Î±âÁØ¹ý" for
 * 근로기준법; European words carry an accent or two), or (a pseudo-word of a wrongly mapped font)
 * more than one symbol or odd punctuation mark making up a third of it.
 */
export function isGarbageToken(token: string): boolean {
  if (NEVER_TEXT.test(token) || UTF8_AS_LATIN1.test(token)) return true;
  const core = token.replace(EDGE, '');
  if (core === '') return false;
  let odd = 0;
  let letters = 0;
  let latin1 = 0;
  for (const ch of core) {
    if (ch >= '\u00A0' && ch <= '\u00FF') latin1++;
    if (/[\p{L}\p{M}\p{N}]/u.test(ch)) letters++;
    else if (!JOINERS.test(ch)) odd++;
  }
  const n = size(core);
  if (latin1 >= 3 && latin1 * 2 > n) return true;
  return odd >= 2 && odd * 3 >= n && letters < n;
}

/** True for a token of ASCII letters and digits only: most tokens, and never garbage. */
function isPlainWord(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}

/** Non-space characters of `text`, and how many of them are in garbage tokens. */
export function garbageShare(text: string): { chars: number; garbage: number } {
  let chars = 0;
  let garbage = 0;
  for (const token of text.split(/\s+/u)) {
    if (token === '') continue;
    // A plain word needs none of isGarbageToken's tests (a book is ~90% such tokens).
    if (isPlainWord(token)) {
      chars += token.length;
      continue;
    }
    const n = size(token);
    chars += n;
    if (isGarbageToken(token)) garbage += n;
  }
  return { chars, garbage };
}

/**
 * Measures how much of a text layer is mojibake: a font whose codes decode to the wrong
 * characters (Latin-1-looking junk, private-use code points, replacement characters, symbol
 * soup in place of words). Pure. Ordinary text in any script, and tables of numbers, score zero
 * or close to it.
 */
export function assessTextQuality(pages: readonly Page[], options: Partial<TextQualityOptions> = {}): TextQuality {
  const opts = { ...DEFAULTS, ...options };
  let chars = 0;
  let garbageChars = 0;
  const garbledPages: number[] = [];
  for (const page of pages) {
    let pageChars = 0;
    let pageGarbage = 0;
    for (const line of page.lines) {
      const s = garbageShare(line.text);
      pageChars += s.chars;
      pageGarbage += s.garbage;
    }
    chars += pageChars;
    garbageChars += pageGarbage;
    if (pageChars >= opts.minPageChars && pageGarbage >= opts.pageGarbledShare * pageChars) garbledPages.push(page.number);
  }
  return { chars, garbageChars, garbledPages };
}

/** "1-3, 7" for [1, 2, 3, 7]: page lists stay short in messages. */
export function pageRanges(pages: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === (pages[j] ?? 0) + 1) j++;
    out.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/**
 * Fails a document whose text layer is nearly all garbage: indexing it would only add noise
 * that matches nothing a person types, and say nothing about why answers are missing.
 *
 * @throws PermanentError GARBLED_TEXT
 */
export function assertReadableText(pages: readonly Page[], options: Partial<TextQualityOptions> = {}): TextQuality {
  const opts = { ...DEFAULTS, ...options };
  const quality = assessTextQuality(pages, opts);
  if (quality.chars > 0 && quality.garbageChars >= opts.documentGarbledShare * quality.chars) {
    const share = Math.round((100 * quality.garbageChars) / quality.chars);
    const where = quality.garbledPages.length > 0 ? ` (garbled pages: ${pageRanges(quality.garbledPages)})` : '';
    throw new PermanentError(
      'GARBLED_TEXT',
      `PDF text layer is garbled: ${share}% of its characters decode to garbage${where}; its fonts map to the wrong characters and it would need OCR.`,
    );
  }
  return quality;
}

/** A reservation about a document that was still indexed (shape of a status-record warning). */
export interface TextWarning {
  code: 'GARBLED_TEXT';
  message: string;
  pages: number[];
}

/**
 * The warning for a document indexed although some of its pages decode to garbage (too few to
 * fail it): those pages' text will match no query, which the status record should say.
 * Empty when no page is garbled.
 */
export function textWarnings(pages: readonly Page[], options: Partial<TextQualityOptions> = {}): TextWarning[] {
  const { garbledPages } = assessTextQuality(pages, options);
  if (garbledPages.length === 0) return [];
  const n = garbledPages.length;
  const message = `The text layer of page${n === 1 ? '' : 's'} ${pageRanges(garbledPages)} decodes to garbage (mojibake); ${n === 1 ? 'it' : 'they'} will not match searches.`;
  return [{ code: 'GARBLED_TEXT', message, pages: garbledPages }];
}
