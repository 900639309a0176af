import { bareArticleTitle, restoreDisplacedNumber } from './displaced-numbers.ts';

/** The numbering systems the sectionizer recognises. */
export type HeadingKind =
  | 'ko-part' // 제N편
  | 'ko-chapter' // 제N장
  | 'ko-section' // 제N절
  | 'ko-subsection' // 제N관
  | 'ko-article' // 제N조
  | 'ko-supplement' // 부칙, [별표 N]
  | 'numbered' // 1. / 1.1 / 4.1.2.
  | 'letter' // Appendix A. / A.1. / A.
  | 'roman' // IV.
  | 'question'; // Q1. / Q 2)

/** A line that is shaped like a heading; chains decide which ones really are. */
export interface HeadingMatch {
  kind: HeadingKind;
  /** Sequence number, compared by the chain rules (e.g. [4, 1, 2] or [43, 2] for 제43조의2). */
  seq: number[];
  /** The heading as printed: the whole line, or for an article its "제N조(제목)" part. */
  title: string;
  /** Body text printed on the heading's line after the title (Korean articles). */
  rest: string;
  /** Confidence from the line's shape alone. */
  weight: number;
  /**
   * A numbered requirement ("3.1.1 Limit system access to authorized users."): a sentence, so
   * it may wrap onto the lines below, which are still part of its title.
   */
  sentence?: boolean;
  /** A second heading printed on the same line after this one ("제1장 총칙 제1조(목적) …"). */
  inner?: HeadingMatch;
}

const KO_LEVEL = { 편: 'ko-part', 장: 'ko-chapter', 절: 'ko-section', 관: 'ko-subsection', 조: 'ko-article' } as const;
// Spaces inside the marker vary by producer ("제 1 조", "제1 장").
const KO_MARKER = /^제\s{0,2}(\d{1,4})\s{0,2}(편|장|절|관|조)(?:\s?의\s?(\d{1,3}))?/u;
// Particles that show a division marker printed without a space is a reference ("제2장에서").
const KO_PARTICLE = /^(?:은|는|이|가|을|를|의|에|와|과|로|으로|및|또는|부터|까지|내지|중|별|\d)/u;
// Brackets around an article's title besides "(": full-width and lenticular ones ("제2조【정의】").
// Not 「」 or [ ]: an untitled article's text may start with a law's name or an annex reference
// ("제3조 「산업안전보건법」에 따른 …", "제5조 [별표 1]의 기준에 따라 …").
const KO_BRACKETS: Readonly<Record<string, string>> = { '(': ')', '（': '）', '【': '】', '［': '］' };
// An article starting later on a chapter's or section's line ("제1장 총칙 제1조(목적) 이 규정은").
const KO_INNER_ARTICLE = /\s(제\s{0,2}\d{1,4}\s{0,2}조(?:\s?의\s?\d{1,3})?\s?[(（【［].*)$/u;
// Words that show "제N조" is a reference inside a sentence, not the article's own heading.
const KO_REFERENCE_FOLLOWER = /^(?:및|또는|부터|까지|내지|에|의|를|을|과|와|·|ㆍ|,|제\s?\d|본문|단서|각\s?호|전단|후단)/u;
const SUPPLEMENT = /^(?:부\s?칙(?=$|\s|<|\()|\[(?:별표|별지)[^\]]*\])/u;
// Sentence endings: a heading never ends like a sentence or a clause.
const SENTENCE_END = /(?:[.,;:。、]|다|니다|요|함|음|임)$/u;
const ANNOTATION = /\s*(?:<[^>]*>|\[[^\]]*\])\s*/gu;
const NUMBERED = /^(\d{1,2}(?:\.\d{1,3}){0,5})(\.?)\s+(\S.*)$/u;
const LETTERED = /^(?:(?:appendix|annex)\s+([A-Z])((?:\.\d{1,3})*)\.?(?:\s*[:—–-]\s*|\s+|$)|([A-Z])((?:\.\d{1,3})+)\.?\s+|([A-Z])\.\s+)(.*)$/iu;
const ROMAN = /^(?=[IVXLC])(C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))\.\s+(\S.*)$/u;
const QUESTION = /^Q\s?(\d{1,3})\s?[.:)]\s*(\S.*)$/u;
const LEADERS = /(?:\.\s?){4,}\s*\S{0,6}\s*$|…{2,}/u;

/** Index of the bracket closing the one at `open`, or -1. */
function closingParen(text: string, open: number): number {
  const opener = text[open] ?? '(';
  const closer = KO_BRACKETS[opener] ?? ')';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === opener) depth++;
    else if (text[i] === closer && --depth === 0) return i;
  }
  return -1;
}

/** "제N조", "제N조의M", "제N장": the marker without the spaces a producer put in it. */
function compactMarker(num: string, unit: string, sub: string | undefined): string {
  return `제${Number(num)}${unit}${sub === undefined ? '' : `의${Number(sub)}`}`;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** A short title that does not read like a sentence. */
function titleShaped(title: string, maxWords: number, maxChars: number): boolean {
  const bare = title.replace(ANNOTATION, ' ').trim();
  return (
    bare.length > 0 &&
    bare.length <= maxChars &&
    words(bare) <= maxWords &&
    /\p{L}/u.test(bare) &&
    !/^\p{Ll}/u.test(bare) &&
    !SENTENCE_END.test(bare) &&
    !LEADERS.test(bare)
  );
}

function matchKorean(text: string): HeadingMatch | null {
  const m = KO_MARKER.exec(text);
  if (!m) {
    // "제 조 목적1": the number printed in another font run, which the text layer put after the words.
    const restored = restoreDisplacedNumber(text);
    if (restored !== null) return matchKorean(restored);
    if (SUPPLEMENT.test(text) && text.length <= 80) return { kind: 'ko-supplement', seq: [], title: text, rest: '', weight: 2 };
    return null;
  }
  const [marker, num = '0', unit = '조', sub] = m;
  const kind = KO_LEVEL[unit as keyof typeof KO_LEVEL];
  const seq = [Number(num), sub === undefined ? 0 : Number(sub)];
  const after = text.slice(marker.length);
  const compact = compactMarker(num, unit, sub);
  if (kind === 'ko-article') {
    const spaced = after.replace(/^\s+/, '');
    if (KO_BRACKETS[spaced[0] ?? ''] !== undefined) {
      const close = closingParen(spaced, 0);
      if (close < 0 || close > 80) return null;
      // One title form whatever the print: "제 1 조 【목적】" is "제1조(목적)".
      const title = `${compact}(${spaced.slice(1, close).trim()})`;
      return { kind, seq, title, rest: spaced.slice(close + 1).trim(), weight: 3 };
    }
    // An untitled article: "제35조 삭제 <2019. 1. 15.>" or "제3조 이 법은 ...".
    if (after === '' || (/^\s/u.test(after) && !KO_REFERENCE_FOLLOWER.test(spaced))) {
      // A title printed without brackets, alone on its line: one form whatever the print.
      if (bareArticleTitle(spaced)) return { kind, seq, title: `${compact}(${spaced})`, rest: '', weight: 3 };
      return { kind, seq, title: compact, rest: spaced, weight: 1 };
    }
    return null;
  }
  // 편/장/절/관: the whole short line is the heading ("제6장의2 직장 내 괴롭힘의 금지 <신설 2019. 1. 15.>"),
  // also printed without a space ("제1장총칙"), or followed by its first article on the same line.
  if (after !== '' && !/^\s/u.test(after) && (!/^\p{Lo}/u.test(after) || KO_PARTICLE.test(after))) return null;
  const inner = KO_INNER_ARTICLE.exec(after);
  const innerMatch = inner ? matchKorean((inner[1] ?? '').trim()) : null;
  const name = (innerMatch ? after.slice(0, inner?.index ?? 0) : after).trim();
  if (name !== '' && !titleShaped(name, 12, 60)) return null;
  // One title form whatever the print: "제 1 장 총칙" and "제1장총칙" are "제1장 총칙".
  const title = `${compact}${name === '' ? '' : ` ${name}`}`;
  return { kind, seq, title, rest: '', weight: 3, ...(innerMatch?.kind === 'ko-article' ? { inner: innerMatch } : {}) };
}

function letterIndex(letter: string): number {
  return letter.toUpperCase().charCodeAt(0) - 64;
}

function subNumbers(dotted: string | undefined): number[] {
  return (dotted ?? '').split('.').filter(Boolean).map(Number);
}

function matchLettered(text: string): HeadingMatch | null {
  const m = LETTERED.exec(text);
  if (!m) return null;
  const [, appLetter, appSub, subLetter, subSub, bareLetter, title = ''] = m;
  if (appLetter !== undefined) {
    // "Appendix A" may stand alone; its title, when present, must still look like one.
    if (title !== '' && !titleShaped(title, 14, 100)) return null;
    return { kind: 'letter', seq: [letterIndex(appLetter), ...subNumbers(appSub)], title: text, rest: '', weight: 3 };
  }
  if (subLetter !== undefined) {
    if (!/^[A-Z]$/u.test(subLetter) || !titleShaped(title, 14, 100)) return null;
    return { kind: 'letter', seq: [letterIndex(subLetter), ...subNumbers(subSub)], title: text, rest: '', weight: 2 };
  }
  if (bareLetter !== undefined && /^[A-Z]$/u.test(bareLetter) && titleShaped(title, 10, 80)) {
    return { kind: 'letter', seq: [letterIndex(bareLetter)], title: text, rest: '', weight: 1 };
  }
  return null;
}

const ROMAN_VALUE: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };

function romanValue(numeral: string): number {
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const v = ROMAN_VALUE[numeral[i] ?? ''] ?? 0;
    const next = ROMAN_VALUE[numeral[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

/**
 * A requirement of a standard, numbered under its family ("3.1.1 Limit system access to
 * authorized users, …"): a sentence rather than a title, so only a multi-level number that
 * starts a capitalised clause of a few words qualifies, and it weighs less than a title.
 */
function requirement(text: string, seq: number[], title: string): HeadingMatch | null {
  if (seq.length < 2 || !/^\p{Lu}\p{Ll}/u.test(title) || words(title) < 3 || LEADERS.test(title)) return null;
  return { kind: 'numbered', seq, title: text, rest: '', weight: 1, sentence: true };
}

/**
 * Recognises a heading-shaped line: Korean statute markers (제N편/장/절/관/조, 제N조의M, 부칙),
 * decimal numbering ("1.", "4.1.2."), appendix letters ("Appendix A.", "A.1.") and roman
 * numerals ("IV."). Inline references ("제50조에 따른") and sentence-like list items are not
 * matches. Dot-leader lines (tables of contents) are not either.
 */
export function matchHeading(text: string): HeadingMatch | null {
  if (text.length > 160) return null;
  const korean = matchKorean(text);
  if (korean) return korean;
  if (LEADERS.test(text)) return null;
  const numbered = NUMBERED.exec(text);
  if (numbered) {
    const [, dotted = '', dot = '', title = ''] = numbered;
    const seq = subNumbers(dotted);
    const single = seq.length === 1;
    // "1 Purpose" (no dot) must at least start like a title and carry a real word, unlike a
    // form's field numbers ("15 AC oui non", "17 C) exemptions"); "2. 23." (a date) has no letters.
    if (!titleShaped(title, 16, 120)) return requirement(text, seq, title);
    if (single && dot === '' && (!/^[\p{Lu}\p{Lo}]/u.test(title) || /^\S{1,2}\)/u.test(title) || !/\p{L}{4}/u.test(title))) return null;
    return { kind: 'numbered', seq, title: text, rest: '', weight: single && dot === '' ? 1 : 2 };
  }
  const question = QUESTION.exec(text);
  if (question && /\p{L}/u.test(question[2] ?? '')) return { kind: 'question', seq: [Number(question[1])], title: text, rest: '', weight: 2 };
  const roman = ROMAN.exec(text);
  if (roman && titleShaped(roman[2] ?? '', 14, 100)) {
    return { kind: 'roman', seq: [romanValue(roman[1] ?? '')], title: text, rest: '', weight: 2 };
  }
  return matchLettered(text);
}

/** True for table-of-contents entries: dot leaders followed by a page number. */
export function hasLeaders(text: string): boolean {
  return LEADERS.test(text);
}
