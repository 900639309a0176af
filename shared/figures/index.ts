/**
 * Figures read from tables for figure questions: which row and column a question asks for, the
 * cell that answers it, breakdowns, values derived from two cells, and the sentence that states
 * the figure.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: figureAsk, bestCell, bestBreakdown, deriveFigure, figureSentence (used by the
 * agent's answerer).
 */

export { bestBreakdown } from './breakdown.ts';
export { bestCell, figureAsk, labelScore, metricWords, MIN_LABEL_SCORE, namedRow, type CandidateTable, type CellMatch, type FigureAsk } from './cell-match.ts';
export { deriveFigure, type DerivedFigure } from './derived.ts';
export { balancePhrase, figureSentence, figureText, labelInSentence, paysOut, periodPhrase, spokenLabel } from './figure-sentence.ts';
export { contentWords, groupsOf, membersIn } from './glossary.ts';
export { daysApart, periodFacts, periodHeader, type PeriodFacts } from './periods.ts';
export { asksBreakdown, asksOutlook, ASKS_OUTLOOK, ASKS_SAID, asksWhatWasSaid, asksYearOverYear, breakdownCues, figurePair, OUTLOOK_TABLE, type FigurePair } from './question-shapes.ts';
