import { anyPassageHasFigure, type Figure } from './figures.ts';

/** Cut-off of every filings measure. */
export const FILINGS_K = 10;

/** One retrieved chunk as the measures see it. */
export interface RankedPassage {
  /** File name of the chunk's document (`2023 Q1 AAPL.pdf`). */
  file: string;
  body: string;
}

/** What an answering agent said about one question. */
export interface AnswerOutcome {
  /** File names of the cited documents. */
  citedFiles: string[];
  validated: boolean;
}

/** The measures of one question. */
export interface QuestionMeasures {
  /** Share of the source documents with a chunk in the top k. */
  docRecall: number;
  /** 1 when every source document has a chunk in the top k. */
  allDocsFound: number;
  /** Whether a top-k chunk of a source document holds a key figure; null when the answer has none. */
  evidenceFound: boolean | null;
  answer?: { rightDocCited: boolean; validated: boolean; validatedWrong: boolean };
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
  k = FILINGS_K,
): QuestionMeasures {
  const top = ranking.slice(0, k);
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
  if (answer) {
    const rightDocCited = answer.citedFiles.some((f) => sources.has(f));
    out.answer = { rightDocCited, validated: answer.validated, validatedWrong: answer.validated && !rightDocCited };
  }
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
    out.rightDocCited = mean(answers.map((a) => (a.rightDocCited ? 1 : 0)));
    out.validated = validated.length / n;
    out.validatedWrong = validated.length ? validated.filter((a) => a.validatedWrong).length / validated.length : 0;
    out.validatedCount = validated.length;
  }
  return out;
}
