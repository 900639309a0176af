/** One retrieved chunk: its store doc id, chunk id and text (the filings eval reads the text). */
export interface RetrievedChunk {
  docId: string;
  chunkId: string;
  body: string;
}

/** What a variant returns for one query. */
export interface Retrieval {
  /** Chunks best first; a document may appear more than once (the BEIR harness keeps its first rank). */
  chunks: RetrievedChunk[];
  /** An answering variant's answer. */
  answer?: RetrievalAnswer;
}

/** What an answering variant answered: its text, its citations (store doc ids and pages) and the verdicts. */
export interface RetrievalAnswer {
  text: string;
  /** The qualifier the answerer put in front of the text, or null. */
  dateQualifier: string | null;
  citations: { docId: string; pages: { start: number; end: number } }[];
  /** The validator's verdict. */
  validated: boolean;
  /** The agent found nothing of the documents asked about (its answer then says "not found"). */
  notFound: boolean;
}

/** A hit's chunk as a {@link RetrievedChunk}. */
export function retrieved(chunk: { doc_id: string; chunk_id: string; body: string }): RetrievedChunk {
  return { docId: chunk.doc_id, chunkId: chunk.chunk_id, body: chunk.body };
}

/**
 * Scores closer than this are a tie. The store's BM25 of word-for-word identical passages differs
 * in its last float32 bits from run to run (about 2e-7 after normalisation).
 */
const TIE_EPSILON = 1e-5;

function byChunkId(a: { chunk: { chunk_id: string } }, b: { chunk: { chunk_id: string } }): number {
  return a.chunk.chunk_id < b.chunk.chunk_id ? -1 : a.chunk.chunk_id > b.chunk.chunk_id ? 1 : 0;
}

/**
 * Hits best first, ties in chunk-id order, each tie's scores made exactly equal. Filings repeat
 * boilerplate word for word, and the embedded store returns such ties in an order, and with float
 * noise, that vary from run to run; snapping a run of hits whose scores lie within
 * {@link TIE_EPSILON} of its first to that first's scores makes two runs of the same code give
 * the same figures (downstream sorts are stable).
 */
export function sortTies<T extends { score: number; keywordScore?: number; vectorScore?: number; chunk: { chunk_id: string } }>(hits: readonly T[]): T[] {
  const sorted = [...hits].sort((a, b) => b.score - a.score);
  const out: T[] = [];
  let group: T[] = [];
  const flush = (): void => {
    const lead = group[0];
    if (!lead) return;
    out.push(...group.sort(byChunkId).map((h) => snap(h, lead)));
    group = [];
  };
  for (const h of sorted) {
    if (group[0] && group[0].score - h.score > TIE_EPSILON) flush();
    group.push(h);
  }
  flush();
  return out;
}

function snap<T extends { score: number; keywordScore?: number; vectorScore?: number }>(h: T, lead: T): T {
  if (h === lead) return h;
  const near = (a: number | undefined, b: number | undefined): boolean => a !== undefined && b !== undefined && Math.abs(a - b) <= TIE_EPSILON;
  return {
    ...h,
    score: lead.score,
    ...(near(h.keywordScore, lead.keywordScore) ? { keywordScore: lead.keywordScore } : {}),
    ...(near(h.vectorScore, lead.vectorScore) ? { vectorScore: lead.vectorScore } : {}),
  };
}
