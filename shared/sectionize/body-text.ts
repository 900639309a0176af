import type { LineSpan } from '../domain/index.ts';
import { SYLLABLE_ROOM_EM, type FlatLine, type LineStats } from './flat-lines.ts';

// A line that starts an item of its own: ① 항, "1." 호, "가." 목, bullets, a checklist's "1.1 Analyze …",
// a question list's "Q1.", and statute notes such as "[본조신설 2012. 2. 1.]".
const ITEM_START =
  /^(?:[\u2460-\u2473\u3251-\u325F]|\d{1,3}[.)](?:\s|$)|\d{1,2}(?:\.\d{1,2})+\s+\p{Lu}|Q\s?\d{1,3}[.:)]\s|\(\d{1,3}\)|[가-하][.)]\s|\([가-하]\)|[a-z][.)]\s|\([a-z]\)|[•·∙◦▪■□●○◆◇*–—-]\s|\[[^\]]{2,40}\]$|<[^>]{2,40}>$)/u;
// A statute article printed again (a version with another effective date) starts a paragraph.
const KO_ARTICLE_START = /^제\s?\d+\s?조(?:의\s?\d+)?\s?\(/u;
const SENTENCE_END = /[.!?。”"')\]>]$|다\.?$/u;
const HANGUL = /\p{Script=Hangul}/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
// Korean statutes wrap anywhere, even inside a word ("체 | 결된"). A word of two or more
// syllables ending in a particle or verb ending ends a word ("자를 | 말한다"), unless the next
// line starts with a particle that never starts a word ("근로조건을 | 를" cannot happen, but
// "근로조건 | 을" can). Anything else is glued: mid-word breaks are the more common case.
const KO_WORD_END = /[은는이가을를에의와과고며면나서도만로게여써및한된할인적라른운던될]$/u;
const KO_CONTINUATION = /^[을를는]/u;
// Words that always start a new word: conjunctions, determiners, article references.
const KO_WORD_START = /^(?:또는|및|다만|그\s|이\s|각\s|제\d)/u;

/**
 * How two consecutive lines of one paragraph are glued: "" or " ". `betweenWords` says the break
 * is known to fall between words (the line stopped short of the edge, or the document breaks its
 * Korean lines only between words): Hangul either side then takes a space.
 */
export function wrapJoiner(prev: string, next: string, betweenWords = false): string {
  const last = prev.slice(-1);
  const first = next.slice(0, 1);
  if (CJK.test(last) && CJK.test(first)) return '';
  if (HANGUL.test(last) && HANGUL.test(first)) {
    if (betweenWords) return ' ';
    const lastWord = prev.slice(prev.lastIndexOf(' ') + 1);
    if (KO_WORD_START.test(next)) return ' ';
    return lastWord.length >= 2 && KO_WORD_END.test(lastWord) && !KO_CONTINUATION.test(next) ? ' ' : '';
  }
  return ' ';
}

/** Whether the break after `prev` falls between words (see {@link wrapJoiner}). */
function betweenWords(prev: FlatLine, stats: WrapStats): boolean {
  return stats.koreanWrapsAtWords || (prev.room ?? 0) >= SYLLABLE_ROOM_EM;
}

/**
 * Room, in ems, left after a line that was not wrapped: a wrapped line stops short of the edge by
 * less than the next word (a few ems); ten is a word of some twenty letters.
 */
const UNWRAPPED_ROOM_EM = 10;
/** Most words of such a line: a field of a cover block, a run-in heading, a label. */
const UNWRAPPED_MAX_WORDS = 8;

/** What joining lines needs of the document's typography (see LineStats). */
export type WrapStats = Pick<LineStats, 'medianLength' | 'koreanWrapsAtWords'>;

/**
 * A line printed as runs set apart (see TextLine.cells): a row of a table the tables reader did not
 * take (cells of words: "통신비 | 월 3만원 | 매월 급여와 함께 지급"), a form's label and value.
 */
function isRow(line: FlatLine): boolean {
  if (!line.cells || line.cells.length < 2) return false;
  // A list item's marker set apart from its text ("-   \"supported_versions\" is REQUIRED …") is no cell.
  const cells = line.cells.filter((c, i) => i > 0 || !LIST_MARKER.test(c[2].trim()));
  // Runs set apart only after a sentence's end are prose with two spaces after each full stop
  // (a plain-text RFC set again in a proportional font: "octet.  This non-zero octet …").
  return cells.length > 1 && !cells.slice(0, -1).every((c) => FULL_STOP.test(c[2].trim()));
}

const FULL_STOP = /(?:[.!?。]|다\.?)["'”’)\]]?$/u;
const LIST_MARKER = /^(?:[-–—•*·▪◦o]|\(?(?:\d{1,2}|[a-z]|[ivx]{1,4})[.)])$/u;

/**
 * Whether the next line's first word would have fitted in the room `prev` left: a line broken
 * before a word that fitted was broken on purpose. The word's width is estimated from the next
 * line's own characters.
 */
function nextWordFits(prev: FlatLine, next: FlatLine): boolean {
  const word = next.text.split(/\s+/u)[0] ?? '';
  const perChar = next.width !== undefined && next.text.length > 0 ? next.width / next.text.length / Math.max(next.fontSize, 1) : 0.5;
  return (prev.room ?? 0) >= (word.length + 1) * perChar;
}

/** What separates two consecutive body lines: a paragraph break, a line break, or a wrap. */
export function separator(prev: FlatLine, next: FlatLine, stats: WrapStats): string {
  const { medianLength } = stats;
  const ends = SENTENCE_END.test(prev.text);
  // A row is a line of its own, never a wrapped sentence's next line: glued, a table reads as run-on cells.
  const row = isRow(prev) || isRow(next);
  if (ITEM_START.test(next.text)) return '\n';
  // A list item's wrapped lines hang under its text; a capitalised line back at its marker is the
  // list's end (a Korean item wraps back to its marker: Hangul has no capitals to say so).
  if (ITEM_START.test(prev.text) && next.x <= prev.x + 0.5 * Math.max(prev.fontSize, 1) && /^\p{Lu}/u.test(next.text)) return '\n';
  // Code and data definitions (RFC structs) keep their lines.
  if (/(?:[{};]|\*\/)$/u.test(prev.text) || next.text.startsWith('}')) return '\n';
  if (ends && KO_ARTICLE_START.test(next.text)) return '\n\n';
  if (next.page !== prev.page || !Number.isFinite(next.gapBefore)) {
    // A page break or a jump to the next column: only a finished sentence ends the paragraph;
    // a colon introduces what follows (a list, a definition).
    if (ends) return '\n\n';
    return row || /[:：]$/u.test(prev.text) ? '\n' : wrapJoiner(prev.text, next.text, betweenWords(prev, stats));
  }
  if (next.gapBefore > 1.45) return '\n\n';
  if (row) return '\n';
  // A short line that stops far short of its column's edge, where the next line's first word would
  // have fitted, was not wrapped: a line of a cover block, a run-in heading the outline did not
  // take ("Gross Margin" over its paragraph), a label.
  // A longer one may be: a plain-text standard set again in a proportional font (an RFC) keeps
  // its 72-character breaks, however far short of the edge they fall.
  if (!ends && (prev.room ?? 0) >= UNWRAPPED_ROOM_EM && prev.text.split(/\s+/u).length <= UNWRAPPED_MAX_WORDS && !/^\p{Ll}/u.test(next.text) && nextWordFits(prev, next)) return '\n';
  const em = Math.max(prev.fontSize, 1);
  if (ends && next.x > prev.x + 0.8 * em) return '\n\n'; // first-line indent
  if (ends && prev.text.length < 0.6 * medianLength) return '\n';
  return wrapJoiner(prev.text, next.text, betweenWords(prev, stats));
}

/** Body text and where each printed line of it sits (see LineSpan). */
export interface JoinedBody {
  text: string;
  spans: LineSpan[];
}

/**
 * Joins body lines into text: wrapped lines glued, paragraph breaks kept as blank lines.
 * `first` is body printed on the heading line itself (`headingLine`), which the next line may
 * simply continue. Each line's trimmed text goes in unchanged (only separators are added), so
 * every span's characters are exactly that line's.
 */
export function joinBody(first: string, lines: readonly FlatLine[], stats: WrapStats, headingLine?: FlatLine): JoinedBody {
  let text = '';
  const spans: LineSpan[] = [];
  let prev: FlatLine | undefined;
  const add = (line: FlatLine, piece: string) => {
    if (piece === '') return;
    if (text !== '') text += prev ? separator(prev, line, stats) : '\n';
    spans.push([text.length, text.length + piece.length, line.page, line.index]);
    text += piece;
    prev = { ...line, text: piece };
  };
  if (headingLine) add(headingLine, first.trim());
  for (const line of lines) add(line, line.text.trim());
  return { text, spans };
}
