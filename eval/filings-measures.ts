import { anyPassageHasFigure, type Figure } from './figures.ts';

/** Cut-off of every filings measure. */
export const FILINGS_K = 10;

/** One retrieved chunk as the measures see it. */
export interface RankedPassage {
  /** File name of the chunk's document (`2023 Q1 AAPL.pdf`). */
  file: string;
  body: string;
}

/** One citation of an answer, by file name and the pages its passage was printed on. */
export interface CitedPassage {
  file: string;
  pages: { start: number; end: number };
}

/** What an answering agent said about one question. */
export interface AnswerOutcome {
  /** The answer as the user reads it (qualifier, quoted sentences, `[n]` markers). */
  text: string;
  /** The date or period qualifier the answerer put in front of the text, or null. */
  dateQualifier: string | null;
  /** Citations in the answer's order; a document may be cited more than once. */
  citations: CitedPassage[];
  validated: boolean;
  /** The agent's own "not found" verdict (state `notFound`: the answer is `NOT_IN_INDEX`). */
  notFound: boolean;
}

/** Extracted text of each page of each document: file name → page number (1-based) → text. */
export type PageTexts = ReadonlyMap<string, ReadonlyMap<number, string>>;

/** What an answer was measured as. */
export interface AnswerMeasures {
  rightDocCited: boolean;
  validated: boolean;
  validatedWrong: boolean;
  /** Whether the answer's text states a key figure of the reference answer; null when it has none. */
  hasFigure: boolean | null;
  /** Words of the answer's text (see {@link answerWordCount}). */
  words: number;
  /** Cites ≥1 document and every cited document is a source document. */
  citedOnlySources: boolean;
  /** A "not found" answer (see {@link isNotFound}). */
  notFound: boolean;
  /** A "not found" answer although a top-k chunk came from a source document (false when found). */
  notFoundWithSource: boolean;
  /** Cites a source document on a page whose text holds a key figure; null when the reference has none. */
  citedPageHasEvidence: boolean | null;
}

/** The measures of one question. */
export interface QuestionMeasures {
  /** Share of the source documents with a chunk in the top k. */
  docRecall: number;
  /** 1 when every source document has a chunk in the top k. */
  allDocsFound: number;
  /** Whether a top-k chunk of a source document holds a key figure; null when the answer has none. */
  evidenceFound: boolean | null;
  answer?: AnswerMeasures;
}

/** Options of {@link measureQuestion}. */
export interface MeasureOptions {
  /** @defaultValue {@link FILINGS_K} */
  k?: number;
  /** Page texts for `citedPageHasEvidence`; a page missing here holds nothing. @defaultValue none */
  pages?: PageTexts;
}

/** Citation markers (`[2]`): the answer's plumbing, not its words or figures. */
const CITATION_MARKER_RE = /\[\d+\]/g;

/**
 * The part of an answer that states things: without its citation markers and without the
 * qualifier the answerer puts in front ("For the period ended 2023-07-01 (Apple · 10-Q · Q3
 * FY2023):"), whose year would otherwise match a money figure in thousands or millions
 * (`2023` × 10⁶ is within the rounding of "$2.0 billion"). The qualifier is matched
 * case-insensitively because the extractive answer capitalises its first letter.
 */
export function answerStatements(text: string, dateQualifier: string | null): string {
  let out = text;
  if (dateQualifier) {
    const at = out.toLowerCase().indexOf(dateQualifier.toLowerCase());
    if (at >= 0) out = out.slice(0, at) + out.slice(at + dateQualifier.length);
  }
  return out.replace(CITATION_MARKER_RE, ' ');
}

/**
 * Words of an answer as a reader counts them: whitespace-separated tokens holding a letter or a
 * digit, citation markers (`[1]`) not counted; the qualifier counts, since the reader reads it.
 */
export function answerWordCount(text: string): number {
  return text
    .replace(CITATION_MARKER_RE, ' ')
    .split(/\s+/)
    .filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
}

/**
 * A "not found" answer: the agent said so (its validator found no passage of the documents asked
 * about, and the answerer wrote `NOT_IN_INDEX`), or the answer cites nothing — the extractive
 * answerer's own "not found" / "not trustworthy" lines and a model answer without a `[n]` cite
 * nothing either, and an answer without a source is no answer to check.
 */
export function isNotFound(answer: Pick<AnswerOutcome, 'notFound' | 'citations'>): boolean {
  return answer.notFound || answer.citations.length === 0;
}

/** True when some page from `start` to `end` of `file` holds one of the figures. */
function citedPagesHoldFigure(c: CitedPassage, figures: readonly Figure[], pages: PageTexts): boolean {
  const doc = pages.get(c.file);
  if (!doc) return false;
  const texts: string[] = [];
  for (let p = c.pages.start; p <= c.pages.end; p++) {
    const t = doc.get(p);
    if (t !== undefined) texts.push(t);
  }
  return anyPassageHasFigure(texts, figures);
}

/** The answer measures of one question (see {@link AnswerMeasures}). */
export function measureAnswer(
  q: { sourceFiles: readonly string[]; figures: readonly Figure[] },
  answer: AnswerOutcome,
  sourceInTopK: boolean,
  pages: PageTexts = new Map(),
): AnswerMeasures {
  const sources = new Set(q.sourceFiles);
  const cited = answer.citations.map((c) => c.file);
  const rightDocCited = cited.some((f) => sources.has(f));
  const notFound = isNotFound(answer);
  const hasFigures = q.figures.length > 0;
  return {
    rightDocCited,
    validated: answer.validated,
    validatedWrong: answer.validated && !rightDocCited,
    hasFigure: hasFigures ? anyPassageHasFigure([answerStatements(answer.text, answer.dateQualifier)], q.figures) : null,
    words: answerWordCount(answer.text),
    citedOnlySources: cited.length > 0 && cited.every((f) => sources.has(f)),
    notFound,
    notFoundWithSource: notFound && sourceInTopK,
    // The same figure in another company's filing is no evidence: only source documents count.
    citedPageHasEvidence: hasFigures ? answer.citations.some((c) => sources.has(c.file) && citedPagesHoldFigure(c, q.figures, pages)) : null,
  };
}

/**
 * Measures one question over its ranking (best first; only the first `k` passages count).
 * The evidence test looks only at chunks of source documents: the same figure printed in another
 * company's filing is no evidence.
 */
export function measureQuestion(
  q: { sourceFiles: readonly string[]; figures: readonly Figure[] },
  ranking: readonly RankedPassage[],
  answer?: AnswerOutcome,
  opts: MeasureOptions = {},
): QuestionMeasures {
  const top = ranking.slice(0, opts.k ?? FILINGS_K);
  const sources = new Set(q.sourceFiles);
  const found = new Set(top.filter((p) => sources.has(p.file)).map((p) => p.file));
  const docRecall = sources.size ? found.size / sources.size : 0;
  const evidenceFound = q.figures.length
    ? anyPassageHasFigure(
        top.filter((p) => sources.has(p.file)).map((p) => p.body),
        q.figures,
      )
    : null;
  const out: QuestionMeasures = { docRecall, allDocsFound: sources.size > 0 && found.size === sources.size ? 1 : 0, evidenceFound };
  if (answer) out.answer = measureAnswer(q, answer, found.size > 0, opts.pages);
  return out;
}

/** The means of a mode over all questions. */
export interface FilingsMeans {
  docRecall10: number;
  docAllFound10: number;
  /** Over the questions whose answer has figures ({@link FilingsMeans.evidenceCovered}). */
  evidenceRecall10: number;
  evidenceCovered: number;
  questions: number;
  /** Fraction of all questions whose answer cites a source document. */
  rightDocCited?: number;
  /** Fraction of all questions answered as validated. */
  validated?: number;
  /** Fraction of the validated answers that cite no source document (0 when none validated). */
  validatedWrong?: number;
  validatedCount?: number;
  /** Fraction of the `evidenceCovered` questions whose answer text states a key figure. */
  answerHasFigure?: number;
  /** Median words of all answers (mean of the two middle ones for an even count). */
  answerWords?: number;
  /** Fraction of all questions whose answer cites ≥1 document, all of them source documents. */
  citedOnlySources?: number;
  /** Fraction of the "not found" answers whose top 10 held a source document (0 when none). */
  notFoundWithSource?: number;
  /** Answers recognised as "not found" (what `notFoundWithSource` is a fraction of). */
  notFoundCount?: number;
  /** Fraction of the `evidenceCovered` questions whose answer cites a source page holding a key figure. */
  citedPageHasEvidence?: number;
}

/** Median of a list (mean of the two middle values for an even count; 0 for none). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Averages per-question measures; answer figures appear only when every question has an answer. */
export function meanMeasures(per: readonly QuestionMeasures[]): FilingsMeans {
  const n = per.length;
  const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const covered = per.filter((m) => m.evidenceFound !== null);
  const out: FilingsMeans = {
    docRecall10: mean(per.map((m) => m.docRecall)),
    docAllFound10: mean(per.map((m) => m.allDocsFound)),
    evidenceRecall10: mean(covered.map((m) => (m.evidenceFound ? 1 : 0))),
    evidenceCovered: covered.length,
    questions: n,
  };
  const answers = per.map((m) => m.answer).filter((a) => a !== undefined);
  if (n > 0 && answers.length === n) {
    const validated = answers.filter((a) => a.validated);
    const notFound = answers.filter((a) => a.notFound);
    const withFigures = answers.filter((a) => a.hasFigure !== null);
    out.rightDocCited = mean(answers.map((a) => (a.rightDocCited ? 1 : 0)));
    out.validated = validated.length / n;
    out.validatedWrong = validated.length ? validated.filter((a) => a.validatedWrong).length / validated.length : 0;
    out.validatedCount = validated.length;
    out.answerHasFigure = mean(withFigures.map((a) => (a.hasFigure ? 1 : 0)));
    out.answerWords = median(answers.map((a) => a.words));
    out.citedOnlySources = mean(answers.map((a) => (a.citedOnlySources ? 1 : 0)));
    out.notFoundWithSource = notFound.length ? notFound.filter((a) => a.notFoundWithSource).length / notFound.length : 0;
    out.notFoundCount = notFound.length;
    out.citedPageHasEvidence = mean(withFigures.map((a) => (a.citedPageHasEvidence ? 1 : 0)));
  }
  return out;
}
