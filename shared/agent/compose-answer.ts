/**
 * The answerer's answer path: the best ranked passages become an extractive answer, or, with a
 * model, the model's answer over the same passages. Documents are data on both paths: passages
 * that read as instructions to an assistant are withheld (never quoted, never sent to the model),
 * and the model's output loses every link, image and URL its cited passages do not contain.
 */
import {
  buildAnswerPrompt,
  citationNumbers,
  composeExtractiveAnswer,
  wordCount,
  sanitizeModelAnswer,
  createDeltaStreamer,
  sentencePieces,
  type Llm,
  type AnswerChunk,
} from '../llm/index.ts';
import { askedAnswerKind } from './answer-checks.ts';
import type { AgentDeps, AnswerGuard } from './deps.ts';
import { asksOverPeriods, composeFigureAnswer, type AnswerDocument, type FigureAnswer } from './figure-answer.ts';
import { contentWords, figureAsk, groupsOf } from '../figures/index.ts';
import { detectInstructionLike } from '../retrieval/index.ts';
import { isSizePart } from '../sectionize/index.ts';
import type { StoredChunkWithoutVector } from '../store/index.ts';

/** A question that asks why or what follows, beside the figure: the best sentence joins the answer. */
const EXPLAIN = /\b(?:why|implications?|impacts?|drivers?|driving|drove|driven|factors?|causes?|reasons?|explain|suggests?|indicates?|repercussions?|consequences?|strateg\w*|priorit\w*)\b/iu;

/** Documents whose tables a figure is looked for in (the search's best; a company's reports of a year are four). */
const MAX_TABLE_DOCUMENTS = 6;

/**
 * Most words of an answer: the figure's sentence and an explanation together, or the quoted
 * sentences (a reader wants the answer, not the page; the passages are a click away).
 */
const MAX_ANSWER_WORDS = 80;

/** The table passages among `chunks` (every ranked hit: a statement may rank below the prose), as answer passages. */
async function tablePassages(chunks: readonly StoredChunkWithoutVector[], withheld: ReadonlySet<string>, titleOf: AnswererOptions['titleOf']): Promise<AnswerChunk[]> {
  // Beyond the passages the extractive answerer looked at, a table is checked here: its labels are quoted.
  const tables = chunks.filter((c) => c.table && !withheld.has(c.chunk_id) && !detectInstructionLike(c.body).flagged);
  return Promise.all(tables.map(async (c) => answerChunk(c, await titleOf(c.doc_id, c.version))));
}

/**
 * Where a passage sits under its document's title: its section path less the leading titles that
 * repeat the document's ("Employee Benefits FAQ" in a document of that title), so a citation reads
 * "Employee Benefits FAQ — Parental leave", or just the title when the passage is under no other;
 * less the "Part 3" a document without headings is split into by size (shared/sectionize's
 * density sections), which names nothing a reader can find on the page.
 */
export function pathUnderTitle(title: string, sectionPath: string): string {
  const key = (t: string): string => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const parts = sectionPath.split(' > ');
  let k = 0;
  while (k < parts.length && (key(parts[k] as string) === key(title) || isSizePart(parts[k] as string))) k++;
  return parts.slice(k).join(' > ');
}

/** A stored chunk as a passage of the answer, under its document's title. */
function answerChunk(c: StoredChunkWithoutVector, title: string): AnswerChunk {
  return {
    chunkId: c.chunk_id,
    docId: c.doc_id,
    title,
    sectionPath: pathUnderTitle(title, c.section_path),
    pageStart: c.page_start,
    pageEnd: c.page_end,
    body: c.body,
    validFrom: c.valid_from,
    validTo: c.valid_to,
    ...(c.line_pages ? { linePages: c.line_pages } : {}),
    ...(c.table ? { table: c.table } : {}),
  };
}

/**
 * The figure's sentence, then the prose sentence that best answers the rest of the question, within
 * the word limit; with `only`, that sentence only when it passes (else the figure alone).
 */
function withExplanation(figure: FigureAnswer, query: string, passages: readonly AnswerChunk[], asOf: string | null, today: string, only?: (sentence: string) => boolean): FigureAnswer {
  const budget = MAX_ANSWER_WORDS - wordCount(figure.text);
  if (budget < 12) return figure;
  const prose = composeExtractiveAnswer({ query, chunks: passages, asOf, today, maxSentences: 1, maxWords: budget, lead: false, firstCitation: figure.citations.length + 1 });
  if (prose.citations.length === 0 || (only && !only(prose.text))) return figure;
  return { text: `${figure.text} ${prose.text}`, citations: [...figure.citations, ...prose.citations] };
}

/**
 * Whether a sentence states a figure for the line item in the question's own words ("Gross margin
 * was 41.3%"), where the table's row named it by a synonym ("Gross profit"): the two may be
 * different figures (a margin as a share, and as an amount), and the reader asked in those words.
 */
function statesInOwnWords(phrase: string): (sentence: string) => boolean {
  return (sentence) => /\d/u.test(sentence) && ` ${contentWords(sentence).join(' ')} `.includes(` ${phrase} `);
}

/**
 * The figure answer from the tables of the documents the search settled on: the ranked table
 * passages and those a search by the question's metric finds in the same documents (the
 * question's other words, the companies' names among them, would find prose). Null when no table
 * holds what is asked (see composeFigureAnswer).
 */
async function figureFromTables(
  options: AnswererOptions,
  query: string,
  rankedChunks: readonly StoredChunkWithoutVector[],
  withheld: ReadonlySet<string>,
  lang: 'en' | 'ko',
): Promise<FigureAnswer | null> {
  const docIds = [...new Set(rankedChunks.map((c) => c.doc_id))].slice(0, MAX_TABLE_DOCUMENTS);
  const versionOf = new Map(rankedChunks.map((c) => [c.doc_id, c.version]));
  const known = new Map<string, AnswerDocument | undefined>(await Promise.all(docIds.map(async (id) => [id, await options.documentOf?.(id, versionOf.get(id))] as const)));
  const names = [...known.values()].flatMap((d) => (d ? [...(d.organisation ? [d.organisation] : []), ...d.aliases] : []));
  const metric = figureAsk(query, names).metric;
  // A question that does not ask for a figure reads only the tables the search ranked: a second
  // search for it would cost every prose question a hybrid query (~50 ms at 100k chunks).
  const asksFigure = askedAnswerKind(query) === 'figure' || asksOverPeriods(query) || groupsOf(query).length > 0;
  const searched = options.searchTables && metric && asksFigure ? await options.searchTables(metric, docIds) : [];
  const seen = new Set(rankedChunks.map((c) => c.chunk_id));
  const more = searched.filter((c) => !seen.has(c.chunk_id));
  for (const c of more) if (!versionOf.has(c.doc_id)) versionOf.set(c.doc_id, c.version);
  const tables = await tablePassages([...rankedChunks, ...more], withheld, options.titleOf);
  for (const id of new Set(tables.map((c) => c.docId))) if (!known.has(id)) known.set(id, await options.documentOf?.(id, versionOf.get(id)));
  // A question that does not ask for a figure is answered from a row only when the row says most of what it asks.
  return composeFigureAnswer(query, tables, (id) => known.get(id), lang, { asksFigure });
}

/** The answer when no passage of the documents the question is about holds what it asks. */
export const NOT_IN_INDEX: Readonly<Record<'ko' | 'en', string>> = {
  en: 'Not found in the indexed documents: no passage of the documents this question is about holds the answer it asks for.',
  ko: '색인된 문서에서 찾지 못했습니다. 질문이 가리키는 문서에 묻는 답이 담긴 구절이 없습니다.',
};

/** What {@link createAnswerer} needs. */
export interface AnswererOptions {
  /** The model, or null for the extractive answer. */
  llm: Llm | null;
  /** A document's title for citations (the doc id when unknown); `version`, when given, is the version the passage is of. */
  titleOf(docId: string, version?: string): Promise<string>;
  /**
   * What a figure answer says of a document: its organisation, the names it goes by, its period.
   * @defaultValue nothing known (a figure sentence then names no organisation)
   */
  documentOf?(docId: string, version?: string): Promise<AnswerDocument | undefined>;
  /**
   * More passages for a figure: the question searched again among these documents' chunks, so a
   * statement whose prose neighbours outranked it is still read. The table passages found join
   * the ranked ones (after them).
   * @defaultValue none (only the ranked passages are read)
   */
  searchTables?(query: string, docIds: readonly string[]): Promise<StoredChunkWithoutVector[]>;
  /**
   * Ranked passages the answer draws on.
   * @defaultValue 8
   */
  maxPassages?: number;
}

/**
 * The agent's `answer` dependency. Without a model: {@link composeExtractiveAnswer}. With one:
 * the passages the extractive answerer did not withhold go to the model (fenced as data by
 * {@link buildAnswerPrompt}); its citations are the `[n]` it used, and its text is sanitised
 * against those cited passages. When every passage was withheld the model is not asked: the
 * extractive answer already says no trustworthy answer was found.
 *
 * @throws whatever {@link Llm.complete} throws (the agent worker's runtime maps it).
 */
export function createAnswerer(options: AnswererOptions): AgentDeps['answer'] {
  const max = Math.max(1, Math.floor(options.maxPassages ?? 8));
  return async ({ query, asOf, today, ranked, qualifier, notFound, onDelta }) => {
    // A composed text (extractive, not found) streams sentence by sentence once it is known.
    const streamWhole = (text: string) => {
      if (onDelta) for (const piece of sentencePieces(text)) onDelta(piece);
    };
    const chunks: AnswerChunk[] = await Promise.all(ranked.slice(0, max).map(async ({ hit: { chunk } }) => answerChunk(chunk, await options.titleOf(chunk.doc_id, chunk.version))));
    const extractive = composeExtractiveAnswer({ query, chunks, asOf, today, qualifier: qualifier ?? null, maxWords: MAX_ANSWER_WORDS });
    const guard: AnswerGuard = { withheld: extractive.withheld };
    // The validator found no passage of the documents asked about that fits: no quote, no citation.
    if (notFound) {
      streamWhole(NOT_IN_INDEX[extractive.lang]);
      return { text: NOT_IN_INDEX[extractive.lang], citations: [], dateQualifier: extractive.dateQualifier, guard };
    }
    const withheld = new Set(extractive.withheld.map((w) => w.chunkId));
    const trusted = chunks.filter((c) => !withheld.has(c.chunkId));
    // A figure printed in a found table: the figure from its cell, in one sentence; then, when the
    // question also asks why, the best sentence. A question that does not ask for a figure gets
    // one only from a row that says nearly all it asks (see composeFigureAnswer).
    if (!options.llm) {
      const figure = await figureFromTables(options, query, ranked.map((r) => r.hit.chunk), withheld, extractive.lang);
      if (figure) {
        const text = EXPLAIN.test(query)
          ? withExplanation(figure, query, trusted, asOf, today)
          : figure.synonymFor
            ? withExplanation(figure, query, trusted, asOf, today, statesInOwnWords(figure.synonymFor))
            : figure;
        streamWhole(text.text);
        return { text: text.text, citations: text.citations, dateQualifier: extractive.dateQualifier, guard };
      }
    }
    if (!options.llm || trusted.length === 0) {
      streamWhole(extractive.text);
      return { text: extractive.text, citations: extractive.citations, dateQualifier: extractive.dateQualifier, guard };
    }
    // With a model, it writes the text; citations are the passages it cites, numbered as given.
    const prompt = buildAnswerPrompt(query, trusted, { asOf, today, lang: extractive.lang });
    // Streaming: tokens go out as the model writes them, but never text the sanitiser may remove.
    const streamer = onDelta ? createDeltaStreamer(onDelta) : null;
    const raw = streamer && options.llm.stream ? await options.llm.stream(prompt, (t) => streamer.push(t)) : await options.llm.complete(prompt);
    const { cited } = citationNumbers(raw, trusted.length);
    const citedChunks = cited.map((n) => ({ n, c: trusted[n - 1] as AnswerChunk }));
    const { text, removed } = sanitizeModelAnswer(
      raw,
      citedChunks.map(({ c }) => c.body),
    );
    const citations = citedChunks.map(({ n, c }) => ({
      n,
      chunkId: c.chunkId,
      docId: c.docId,
      title: c.title,
      sectionPath: c.sectionPath,
      pages: { start: c.pageStart, end: c.pageEnd },
      validFrom: c.validFrom,
      validTo: c.validTo,
    }));
    streamer?.finish(text);
    return { text, citations, dateQualifier: extractive.dateQualifier, guard: { ...guard, removed, byModel: true } };
  };
}
