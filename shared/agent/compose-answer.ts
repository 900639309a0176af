/**
 * The answerer's answer path: the best ranked passages become an extractive answer, or, with a
 * model, the model's answer over the same passages. Documents are data on both paths: passages
 * that read as instructions to an assistant are withheld (never quoted, never sent to the model),
 * and the model's output loses every link, image and URL its cited passages do not contain.
 */
import type { Llm } from '../llm/llm.ts';
import { buildAnswerPrompt, citationNumbers } from '../llm/answer-prompt.ts';
import { composeExtractiveAnswer, type AnswerChunk } from '../llm/extractive-answer.ts';
import { sanitizeModelAnswer } from '../llm/sanitize-answer.ts';
import { createDeltaStreamer, sentencePieces } from '../llm/stream-pieces.ts';
import type { AgentDeps, AnswerGuard } from './deps.ts';

/** The answer when no passage of the documents the question is about holds what it asks. */
export const NOT_IN_INDEX: Readonly<Record<'ko' | 'en', string>> = {
  en: 'Not found in the indexed documents: no passage of the documents this question is about holds the answer it asks for.',
  ko: '색인된 문서에서 찾지 못했습니다. 질문이 가리키는 문서에 묻는 답이 담긴 구절이 없습니다.',
};

/** What {@link createAnswerer} needs. */
export interface AnswererOptions {
  /** The model, or null for the extractive answer. */
  llm: Llm | null;
  /** A document's title for citations (the doc id when unknown). */
  titleOf(docId: string): Promise<string>;
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
    const chunks: AnswerChunk[] = await Promise.all(
      ranked.slice(0, max).map(async (r) => ({
        chunkId: r.hit.chunk.chunk_id,
        docId: r.hit.chunk.doc_id,
        title: await options.titleOf(r.hit.chunk.doc_id),
        sectionPath: r.hit.chunk.section_path,
        pageStart: r.hit.chunk.page_start,
        pageEnd: r.hit.chunk.page_end,
        body: r.hit.chunk.body,
        validFrom: r.hit.chunk.valid_from,
        validTo: r.hit.chunk.valid_to,
      })),
    );
    const extractive = composeExtractiveAnswer({ query, chunks, asOf, today, qualifier: qualifier ?? null });
    const guard: AnswerGuard = { withheld: extractive.withheld };
    // The validator found no passage of the documents asked about that fits: no quote, no citation.
    if (notFound) {
      streamWhole(NOT_IN_INDEX[extractive.lang]);
      return { text: NOT_IN_INDEX[extractive.lang], citations: [], dateQualifier: extractive.dateQualifier, guard };
    }
    const withheld = new Set(extractive.withheld.map((w) => w.chunkId));
    const trusted = chunks.filter((c) => !withheld.has(c.chunkId));
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
    return { text, citations, dateQualifier: extractive.dateQualifier, guard: { ...guard, removed } };
  };
}
