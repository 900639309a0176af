/**
 * Korean rules written in a word processor often print the digits of "제1조(목적)" in a Latin
 * font and the words in a Korean one, and draw the Korean run first with gaps left for the
 * digits. pdf.js then gives one text item for the Korean run, gaps turned into spaces
 * ("제 조 목적"), and the digits as a later item inside its extent; ordered by where items
 * start, the digits land at the end of the run: "제 조 목적1", "제 장 총칙1", or at the end of
 * the line when the body shares the run ("제 조(목적) 이 규정은 … 정한다.1"). The marker's
 * number slot is empty ("제" and the unit apart, nothing between), which no Korean sentence
 * prints, so the digits found where the run ends are put back.
 */

// "제", a gap where the number was, and the unit, followed by a space or a title bracket.
const EMPTY_MARKER = /^제\s+(편|장|절|관|조)(?=[\s(（【［])/u;
const OPEN_TO_CLOSE: Readonly<Record<string, string>> = { '(': ')', '（': '）', '【': '】', '［': '］' };
// Digits at the end of the line (a run that held the whole line).
const TRAILING_DIGITS = /^(.*?)\s*(\d{1,4})$/u;
// An article's title word with the digits glued to its end ("목적1"): the title was a run of its own.
const TITLE_THEN_DIGITS = /^((?:[^\s\d()（）【】［］]+\s){0,2}[^\s\d()（）【】［］]+?)(\d{1,4})(?=\s|$)/u;
// The title's brackets, printed in the digits' font, left behind empty ("( )").
const EMPTY_BRACKETS = /[(（]\s*[)）]/u;
// What follows a reference in a sentence ("제 조 및 제 조에 따른"): no heading.
const REFERENCE_WORD = /^(?:및|또는|부터|까지|내지|에|의|를|을|과|와|·|ㆍ|,)/u;

/** A bracketed title right after the marker ("(목적)1 …"): the title and what follows the digits. */
function bracketed(after: string): { title: string; digits: string; rest: string } | null {
  const close = OPEN_TO_CLOSE[after[0] ?? ''];
  const end = close === undefined ? -1 : after.indexOf(close);
  if (end < 1) return null;
  const tail = after.slice(end + 1);
  const glued = /^\s*(\d{1,4})(?=\s|$)(.*)$/u.exec(tail);
  if (glued) return { title: after.slice(1, end), digits: glued[1] ?? '', rest: glued[2] ?? '' };
  const trailing = TRAILING_DIGITS.exec(tail);
  return trailing ? { title: after.slice(1, end), digits: trailing[2] ?? '', rest: trailing[1] ?? '' } : null;
}

/** An article line with its number put back in place ("제1조(목적) rest"), or null. */
function article(after: string): string | null {
  const spaced = after.trim();
  if (REFERENCE_WORD.test(spaced)) return null;
  const inBrackets = bracketed(spaced);
  if (inBrackets) return `제${Number(inBrackets.digits)}조(${inBrackets.title.trim()}) ${inBrackets.rest.trim()}`.trim();
  const titled = TITLE_THEN_DIGITS.exec(spaced);
  if (titled) {
    const rest = spaced.slice(titled[0].length).replace(EMPTY_BRACKETS, '').trim();
    return `제${Number(titled[2])}조(${(titled[1] ?? '').trim()}) ${rest}`.trim();
  }
  // An untitled article whose run held the whole line: the digits close the line.
  const trailing = TRAILING_DIGITS.exec(spaced);
  return trailing && trailing[1] ? `제${Number(trailing[2])}조 ${trailing[1]}` : null;
}

/**
 * The line with the number of its Korean division or article marker put back where it is
 * printed ("제 조 목적1" → "제1조(목적)", "제 조(목적)1 이 규정은 …" → "제1조(목적) 이 규정은 …",
 * "제 장 총칙1" → "제1장 총칙"), or null when the line has no empty marker or no digits to
 * fill it with. "제N조의M" with both numbers displaced is ambiguous and left alone.
 */
export function restoreDisplacedNumber(text: string): string | null {
  const m = EMPTY_MARKER.exec(text);
  if (!m) return null;
  const unit = m[1] ?? '조';
  const after = text.slice(m[0].length);
  if (/^\s*의/u.test(after)) return null;
  if (unit === '조') return article(after);
  // A division heading is a line of its own: its digits close the line.
  const trailing = TRAILING_DIGITS.exec(after.trim());
  if (!trailing || REFERENCE_WORD.test(trailing[1] ?? '')) return null;
  return `제${Number(trailing[2])}${unit} ${(trailing[1] ?? '').replace(EMPTY_BRACKETS, '').trim()}`.trim();
}

// A bare title is one or two words of Hangul; a body's first words carry a particle or open with a determiner.
const BARE_TITLE = /^\p{Script=Hangul}{1,10}(?:[ ·ㆍ]\p{Script=Hangul}{1,10})?$/u;
const BODY_START = /^(?:이|그|각|본|해당|다음|제)\s|(?:\p{Script=Hangul}[은는을를이가]|다|요|함|음)(?:\s|$)/u;

/**
 * Whether what follows an article's marker, alone on its line, is the article's title printed
 * without brackets ("제1조 목적", "제4조 위원회의 구성"; also what "제 조 목적" + "1" reads once the
 * digit is back in place): a short noun phrase, never a deleted article ("삭제") or the opening
 * words of its text ("이 규칙은").
 */
export function bareArticleTitle(rest: string): boolean {
  return BARE_TITLE.test(rest) && rest !== '삭제' && !BODY_START.test(rest);
}
