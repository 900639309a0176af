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
  /** An answering variant's answer: the store doc ids it cites and the validator's verdict. */
  answer?: { citedDocIds: string[]; validated: boolean };
}

/** A hit's chunk as a {@link RetrievedChunk}. */
export function retrieved(chunk: { doc_id: string; chunk_id: string; body: string }): RetrievedChunk {
  return { docId: chunk.doc_id, chunkId: chunk.chunk_id, body: chunk.body };
}
