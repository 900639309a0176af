/**
 * Sentence splitting for English and Korean prose (and anything that punctuates like them).
 *
 * Rule-based on purpose: the chunker only needs boundaries that are safe places to cut, and a
 * missed boundary (a longer sentence) costs far less than a false one (a cut mid-thought).
 * So every ambiguous case leans towards "not a boundary".
 */

/** A half-open character range `[start, end)` of a text, trimmed of surrounding whitespace. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Abbreviations that (almost) never end a sentence, lower-cased, without their final dot.
 * Titles, "e.g."-style Latin, reference words that are followed by a number, month names.
 */
const NON_TERMINAL = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'gen', 'gov', 'rep', 'sen', 'hon', 'rev', 'capt', 'lt', 'col', 'sgt',
  'e.g', 'i.e', 'eg', 'ie', 'cf', 'vs', 'viz', 'al', 'approx', 'ca', 'resp', 'incl', 'esp', 'excl',
  'fig', 'figs', 'no', 'nos', 'art', 'arts', 'sec', 'secs', 'ch', 'chap', 'vol', 'vols', 'pp', 'p', 'para', 'paras', 'eq', 'eqs', 'ref', 'refs', 'ed', 'eds',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** A company's legal form, which a sentence goes on after when a bracket follows ("Inc. (NASDAQ: …)"). */
const LEGAL_FORM = new Set(['inc', 'corp', 'co', 'ltd', 'llc', 'plc', 'l.p', 'n.v', 's.a', 'ag']);

/** Characters that may close a sentence after its final punctuation: quotes and brackets. */
const CLOSERS = new Set([')', ']', '}', '"', "'", '”', '’', '」', '』', '»', '〉', '》']);

/** Ideographic / full-width terminators: a boundary even without a following space. */
const WIDE_TERMINATORS = new Set(['。', '！', '？']);

/** ① … ⑳, ㉑ … ㉟, ㊱ … ㊿: Korean clause (항) markers, each starts a new clause. */
export const CIRCLED_NUMBER = /[\u2460-\u2473\u3251-\u325F\u32B1-\u32BF]/;

/** Text before a circled number that is only an article heading ("제1조(목적) ①"): no cut there. */
const ARTICLE_HEAD_ONLY = /^\s*(?:제\s*\d+\s*조(?:\s*의\s*\d+)?(?:\s*\([^)]*\))?)?\s*$/;

/** Korean list markers made of one syllable: 가. 나. 다. … 하. */
const HANGUL_ITEM = /^[가나다라마바사아자차카타파하]\.$/;

/** A list or heading number at the start of a segment: "1.", "4.1.2.", "(3).", "IV.". */
const NUMBER_MARKER = /^(?:\(?\d{1,3}(?:\.\d{1,3})*\.|[IVXLivxl]{1,5}\.)$/;

/** "2024. 10. 22" right before a final dot. */
const DOTTED_DATE_END = /\d{4}\s*\.\s*\d{1,2}\s*\.\s*\d{1,2}$/;

const CANDIDATE = /[.!?…。！？]+|[\u2460-\u2473\u3251-\u325F\u32B1-\u32BF]|\n[ \t\f\v\r]*\n/g;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

function isHangul(ch: string | undefined): boolean {
  return ch !== undefined && /[\uAC00-\uD7A3]/.test(ch);
}

function isLowerLatin(ch: string | undefined): boolean {
  return ch !== undefined && /[a-z\u00DF-\u00F6\u00F8-\u00FF]/.test(ch);
}

/**
 * The whitespace-delimited token that ends at `end` (exclusive), looking back at most 64
 * characters so that long unspaced runs cannot make splitting quadratic.
 */
function tokenBefore(text: string, end: number): { token: string; start: number } {
  let start = end;
  while (start > 0 && end - start < 64 && !isSpace(text[start - 1])) start -= 1;
  return { token: text.slice(start, end), start };
}

/**
 * Decides whether a run of `.`/`!`/`?`/`…` at `[at, runEnd)` ends a sentence, given the start
 * of the current segment. Returns the boundary offset (after closing quotes/brackets) or -1.
 */
function terminalBoundary(text: string, segStart: number, at: number, runEnd: number): number {
  let end = runEnd;
  while (end < text.length && CLOSERS.has(text[end] ?? '')) end += 1;
  const run = text.slice(at, runEnd);
  const last = text[runEnd - 1];
  if (last !== undefined && WIDE_TERMINATORS.has(last)) return end;

  const next = text[end];
  const before = text[at - 1];
  if (next !== undefined && !isSpace(next)) {
    // "한다.다만" — a Korean sentence glued to the next by a lost space is still two sentences;
    // anything else glued (1.5, 4.1.2, e.g.x, U.S.A) is not a boundary.
    return run === '.' && isHangul(before) && isHangul(next) ? end : -1;
  }

  let k = end;
  while (k < text.length && isSpace(text[k])) k += 1;
  const following = text[k];
  if (following === undefined) return end;
  // A lower-case continuation means the dot/ellipsis/question was inside the sentence.
  if (isLowerLatin(following)) return -1;
  if (run !== '.') return end;

  const { token, start: tokenStart } = tokenBefore(text, runEnd);
  const bare = token.slice(0, -1).replace(/^[("'“‘[]+/, '');
  const lower = bare.toLowerCase();
  if (NON_TERMINAL.has(lower)) return -1;
  // A company's legal form before its ticker or a bracket: "Acme, Inc. (NASDAQ: ACMR) reported".
  if (LEGAL_FORM.has(lower) && /[([]/u.test(following)) return -1;
  // U.S., e.g., a.m., Ph.D.: dotted abbreviations. "in the U.S. The …" is then missed — the
  // cheaper error (see module doc).
  if (/^(?:[A-Za-z]{1,2}\.)+[A-Za-z]{1,2}$/.test(bare)) return -1;
  // A single capital initial: "J. Smith".
  if (/^[A-Z]$/.test(bare)) return -1;
  // Dates and numbered references: "2025. 2. 23.", "No 5. 6" — number, dot, space, number.
  if (/\d$/.test(bare) && /\d/.test(following)) return -1;
  // Korean dotted dates end in a dot ("2024. 10. 22. 이다"): never a sentence end in Korean
  // prose, which ends on a predicate. Only a Latin capital after it is taken as a new sentence.
  if (end === runEnd && DOTTED_DATE_END.test(text.slice(Math.max(0, at - 16), at)) && !/[A-Z]/.test(following)) return -1;
  // A list or heading marker opening the segment ("1. ", "4.1.2. ", "가. ") is not a sentence.
  const onlyMarkerSoFar = text.slice(segStart, tokenStart).trim() === '';
  if (onlyMarkerSoFar && (NUMBER_MARKER.test(token) || HANGUL_ITEM.test(token))) return -1;
  return end;
}

/**
 * Splits `text` into sentence spans (offsets into `text`, whitespace trimmed, never empty).
 *
 * - English: `.`, `!`, `?`, `…` followed by space and a non-lower-case character; not after
 *   abbreviations (e.g., Dr., U.S., Fig., Jan.), initials, inside decimals (1.5) or section
 *   numbers (4.1.2), nor after a leading list marker ("1. ", "4.1.2. ").
 * - Korean: any `.`/`?`/`!` after a syllable (다. 요. 까? 죠. 함. 음.), also when the next
 *   sentence follows without a space; `。！？` always; dotted dates ("2025. 2. 23.") never;
 *   single-syllable item markers ("가. ", "나. ") at a segment start never.
 * - Circled numbers ①②③ start a new clause, except right after an article heading
 *   ("제1조(목적) ① …" stays together so the heading is not left alone).
 * - A blank line always ends a sentence; single newlines are soft (PDF line wraps).
 */
export function splitSentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let segStart = 0;
  const push = (end: number): void => {
    let s = segStart;
    let e = end;
    while (s < e && isSpace(text[s])) s += 1;
    while (e > s && isSpace(text[e - 1])) e -= 1;
    if (e > s) spans.push({ start: s, end: e });
    segStart = end;
  };

  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const at = m.index;
    const match = m[0];
    if (at < segStart) continue;
    if (match.startsWith('\n')) {
      push(at);
      continue;
    }
    if (CIRCLED_NUMBER.test(match)) {
      const prefix = text.slice(segStart, at);
      if (!ARTICLE_HEAD_ONLY.test(prefix) && (at === 0 || isSpace(text[at - 1]) || /[.。:)]/.test(text[at - 1] ?? ''))) {
        push(at);
      }
      continue;
    }
    const boundary = terminalBoundary(text, segStart, at, at + match.length);
    if (boundary >= 0) {
      push(boundary);
      CANDIDATE.lastIndex = Math.max(CANDIDATE.lastIndex, boundary);
    }
  }
  push(text.length);
  return spans;
}

/** {@link splitSentenceSpans} as strings. */
export function splitSentences(text: string): string[] {
  return splitSentenceSpans(text).map((s) => text.slice(s.start, s.end));
}
