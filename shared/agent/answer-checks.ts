/**
 * What the validator checks beyond grounding (issue 13): that the passage an answer would cite
 * comes from a document the question is about (the organisation, period or form it names), and
 * that it holds the kind of answer asked — a figure for "how much / what was the revenue", a
 * date for "when". Over many look-alike filings a well-grounded passage of the wrong company or
 * year is the typical confident wrong answer; these checks catch it. Pure.
 */
import type { QueryScope } from '../retrieval/index.ts';

/** The kind of answer a question asks for. */
export type AnswerKind = 'figure' | 'date';

const MEASURE = '(?:revenue|revenues|sales|income|margin|margins|expense|expenses|expenditure|expenditures|cost|costs|cash|cash flow|amount|rate|total|percentage|share|eps|earnings|profit|loss|capex|debt|assets|liabilities|dividend|dividends|price|spending|balance|inventory|inventories|backlog|headcount|tax)';
const FIGURE_QUESTION = new RegExp(
  `\\bhow\\s+(?:much|many)\\b|\\bwhat\\s+(?:was|were|is|are)\\s+(?:the\\s+)?(?:[\\w'’.-]+\\s+){0,5}${MEASURE}\\b|\\bwhat\\s+percentage\\b|얼마|금액|몇\\s*(?:명|개|건|%|퍼센트)|비율은`,
  'iu',
);
/**
 * A question asks for a date when it asks what date or day, or "when" something happened or takes
 * effect: "when" with a past or future auxiliary and an event ("When was the facility signed?",
 * "When does the policy take effect?"). "When should a person contact law enforcement?" asks for
 * a situation, not a date: a modal after "when", or no event, is prose.
 */
const EXPLICIT_DATE = /\bwhat\s+(?:date|day)\b|\bon\s+which\s+(?:date|day)\b|\bwhich\s+(?:date|day|year|month)\b|\bwhat\s+(?:year|month)\s+(?:did|does|do|will|was|were|is)\b|며칠에|날짜는|몇\s*월\s*며칠|언제\s*(?:부터|까지)|언제\s*\S*\s*(?:시행|적용|개시|종료|마감|만료|발효|지급)/iu;
const WHEN_EVENT = new RegExp(
  `\\bwhen\\s+(?:did|does|do|will|was|were|is|are|has|have)\\b(?:\\s+[\\w'’&.,-]+){0,8}?\\s+(?:${[
    'take effect', 'took effect', 'takes effect', 'become effective', 'became effective', 'becomes effective', 'effective', 'expire', 'expired', 'expires',
    'start', 'started', 'starts', 'begin', 'began', 'begins', 'end', 'ended', 'ends', 'close', 'closed', 'closes', 'open', 'opened', 'launch', 'launched',
    'sign', 'signed', 'file', 'filed', 'issue', 'issued', 'publish', 'published', 'adopt', 'adopted', 'enact', 'enacted', 'found', 'founded', 'incorporated',
    'acquire', 'acquired', 'complete', 'completed', 'announce', 'announced', 'occur', 'occurred', 'happen', 'happened', 'release', 'released', 'due',
    'mature', 'matured', 'matures', 'terminate', 'terminated', 'paid', 'pay', 'declared', 'approved', 'amended', 'repealed', 'revised', 'held', 'end of',
  ].join('|')})\\b`,
  'iu',
);
/** "When" after which a modal asks for circumstances ("when should / must / can …"). */
const WHEN_CIRCUMSTANCE = /\bwhen\s+(?:should|must|can|could|may|might|would|shall|ought|do\s+(?:i|we|you)|does\s+(?:one|a|an|the\s+\w+)\s+need)\b/iu;

/** Whether a question asks for a date (see EXPLICIT_DATE, WHEN_EVENT). */
export function asksForDate(question: string): boolean {
  const q = question.normalize('NFKC');
  if (EXPLICIT_DATE.test(q)) return true;
  if (WHEN_CIRCUMSTANCE.test(q)) return false;
  return WHEN_EVENT.test(q);
}
/** Comparisons, trends and explanations ask for prose even when they name a measure. */
const PROSE_QUESTION = /\b(?:how\s+(?:has|have|did|does|do)\b(?!\s+much|\s+many)|why\b|explain|describe|summari[sz]e|outline|analy[sz]e|discuss|compare|trend|trends|relationship|impact|implications?)\b/i;

/** The kind of answer a question asks for, or null for prose (explain, compare, describe). */
export function askedAnswerKind(question: string): AnswerKind | null {
  const q = question.normalize('NFKC');
  if (asksForDate(q)) return 'date';
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

/** What {@link answerStatesWhatWasAsked} looks at. */
export interface StatedAnswer {
  question: string;
  /** The answer's text (citation markers and qualifier are ignored). */
  text: string;
  /** The cited passages: their document and body. */
  cited: readonly FitPassage[];
  /** The documents the question is about (the routing's choice), or null when it names none. */
  wantedDocIds: ReadonlySet<string> | null;
  /**
   * Every figure the answer states must be printed in a cited passage (a model's answer: it may
   * compute or misread). Otherwise one printed figure suffices: Quarry's own computed shares come
   * from cited cells.
   */
  everyFigure?: boolean;
}

/** The answer's own words: citation markers and a leading qualifier ("For the period ended …:") removed. */
function statement(text: string): string {
  return text.replace(/\[\d+\]/gu, ' ').replace(/^[^:]{0,200}\b(?:for the periods? ended|as of|for fiscal|기준)[^:]*:\s*/iu, '');
}

/**
 * Whether an answer may be called validated: it says what was asked — a figure for a figure
 * question, a date for a date question — and the figure or date it states is printed in a cited
 * passage; and every cited passage is of a document the question is about. One right citation
 * among wrong ones, or well-cited sentences that do not state the figure, are not an answer.
 */
export function answerStatesWhatWasAsked(a: StatedAnswer): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  if (a.cited.length === 0) problems.push('the answer cites nothing');
  if (a.wantedDocIds && a.wantedDocIds.size > 0) {
    const stray = [...new Set(a.cited.map((c) => c.docId))].filter((d) => !a.wantedDocIds?.has(d));
    if (stray.length > 0) problems.push(`cites ${stray.length} document(s) the question is not about`);
  }
  const kind = askedAnswerKind(a.question);
  const said = statement(a.text);
  if (kind && !holdsAnswerKind(said, kind)) problems.push(`the answer states no ${kind}`);
  const figures = (said.replace(NOT_A_FIGURE, ' ').match(/\d[\d,]*(?:\.\d+)?/gu) ?? []).map((f) => f.replace(/,/gu, ''));
  const printed = a.cited.map((c) => c.body.replace(/,/gu, ''));
  const isPrinted = (f: string): boolean => printed.some((b) => b.includes(f));
  if (a.everyFigure) {
    const unprinted = [...new Set(figures.filter((f) => !isPrinted(f)))];
    if (unprinted.length > 0) problems.push(`figure(s) ${unprinted.slice(0, 3).join(', ')} of the answer are printed in no cited passage`);
  } else if (kind === 'figure' && figures.length > 0 && !figures.some(isPrinted)) problems.push('no figure of the answer is printed in a cited passage');
  return { ok: problems.length === 0, problems };
}
