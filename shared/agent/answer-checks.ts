/**
 * What the validator checks beyond grounding (issue 13): that the passage an answer would cite
 * comes from a document the question is about (the organisation, period or form it names), and
 * that it holds the kind of answer asked — a figure for "how much / what was the revenue", a
 * date for "when". Over many look-alike filings a well-grounded passage of the wrong company or
 * year is the typical confident wrong answer; these checks catch it. Pure.
 */
import type { QueryScope } from '../retrieval/document-routing.ts';

/** The kind of answer a question asks for. */
export type AnswerKind = 'figure' | 'date';

const MEASURE = '(?:revenue|revenues|sales|income|margin|margins|expense|expenses|expenditure|expenditures|cost|costs|cash|cash flow|amount|rate|total|percentage|share|eps|earnings|profit|loss|capex|debt|assets|liabilities|dividend|dividends|price|spending|balance|inventory|inventories|backlog|headcount|tax)';
const FIGURE_QUESTION = new RegExp(
  `\\bhow\\s+(?:much|many)\\b|\\bwhat\\s+(?:was|were|is|are)\\s+(?:the\\s+)?(?:[\\w'’.-]+\\s+){0,5}${MEASURE}\\b|\\bwhat\\s+percentage\\b|얼마|금액|몇\\s*(?:명|개|건|%|퍼센트)|비율은`,
  'iu',
);
const DATE_QUESTION = /^\s*when\b|\bwhat\s+(?:date|day)\b|\bon\s+which\s+date\b|언제|며칠에|날짜는/iu;
/** Comparisons, trends and explanations ask for prose even when they name a measure. */
const PROSE_QUESTION = /\b(?:how\s+(?:has|have|did|does|do)\b(?!\s+much|\s+many)|why\b|explain|describe|summari[sz]e|outline|analy[sz]e|discuss|compare|trend|trends|relationship|impact|implications?)\b/i;

/** The kind of answer a question asks for, or null for prose (explain, compare, describe). */
export function askedAnswerKind(question: string): AnswerKind | null {
  const q = question.normalize('NFKC');
  if (DATE_QUESTION.test(q)) return 'date';
  if (PROSE_QUESTION.test(q) && !/\bhow\s+(?:much|many)\b/i.test(q)) return null;
  return FIGURE_QUESTION.test(q) ? 'figure' : null;
}

/** Any number: digits (amounts, percentages, counts) or a number word ("sixteen weeks", "세 번"). */
const FIGURE = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|half)\b|[일이삼사오육칠팔구십백천만억]\s*(?:원|명|개|주|일|개월|년|%)/iu;
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DATE = new RegExp(`\\b${MONTH}\\.?\\s+\\d{1,2},?\\s+\\d{4}\\b|\\b\\d{1,2}\\s+${MONTH}\\.?\\s+\\d{4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\d{4}\\s*년\\s*\\d{1,2}\\s*월|\\d{4}\\.\\s?\\d{1,2}\\.\\s?\\d{1,2}|\\b(?:in|by|during|since)\\s+(?:${MONTH}\\s+)?\\d{4}\\b`, 'iu');

/** Whether `text` holds an answer of `kind`. */
export function holdsAnswerKind(text: string, kind: AnswerKind): boolean {
  return kind === 'figure' ? FIGURE.test(text.replace(NOT_A_FIGURE, ' ')) : DATE.test(text);
}

/** Numbers that answer no "how much": references to parts of a document, and bare years. */
const NOT_A_FIGURE = /\b(?:item|part|note|notes|section|sections|article|chapter|page|pages|exhibit|schedule|rule|form)\s+\d+[\dA-Za-z.()-]*|제\s*\d+\s*[조항호장절]|(?<![\d,.$])\b(?:19|20)\d{2}\b(?![\d,.%]|\s*(?:million|billion|thousand|percent))/giu;

/** What {@link checkAnswerFit} looks at: the best passages, in rank order. */
export interface FitPassage {
  docId: string;
  body: string;
}

/** The verdict of {@link checkAnswerFit}. */
export interface AnswerFit {
  /** The best passage's document is one the question is about (true when it names none). */
  documentOk: boolean;
  /** One of the passages an answer would quote holds the kind of answer asked (true for prose questions). */
  kindOk: boolean;
  kind: AnswerKind | null;
  /** Human-readable problems, for the trace and the validator's reason. */
  problems: string[];
}

/**
 * Checks the passages an answer would draw on against what was asked: the first passage's
 * document must be one of `scope.docIds` (the documents matching every organisation, period
 * and form the question names), and among the first `quoted` passages of those documents one
 * must hold a figure (or a date) when the question asks for one.
 *
 * @defaultValue quoted = 3
 */
export function checkAnswerFit(question: string, scope: QueryScope | null, passages: readonly FitPassage[], quoted = 3): AnswerFit {
  const kind = askedAnswerKind(question);
  const problems: string[] = [];
  const wanted = scope && scope.docIds.length > 0 ? new Set(scope.docIds) : null;
  const first = passages[0];
  const unmatched = scope?.unmatched ?? [];
  const documentOk = unmatched.length === 0 && (!first || !wanted || wanted.has(first.docId));
  if (unmatched.length > 0) problems.push(`no indexed document matches the ${unmatched.join(' and ')} the question names`);
  else if (!documentOk) problems.push(`best passage is from a document the question is not about (${scope?.reason ?? ''})`);
  const pool = passages.filter((p) => !wanted || wanted.has(p.docId)).slice(0, quoted);
  const kindOk = kind === null || pool.some((p) => holdsAnswerKind(p.body, kind));
  if (!kindOk) problems.push(`no passage holds the ${kind} asked for`);
  return { documentOk, kindOk, kind, problems };
}
