/**
 * A provision the question names by number ("section 4.2", "제8조") leads the agent's ranking,
 * though a document's other sections share more of the question's words than the one it asks about.
 */
import { describe, expect, it } from 'vitest';
import { createAgentRanking } from '../../shared/agent/agent-ranking.ts';
import { createLexicalReranker } from '../../shared/retrieval/index.ts';
import type { HybridHit } from '../../shared/store/index.ts';
import { hybridHit, storedChunk } from '../helpers/hybrid-hits.ts';

describe('the agent’s ranking of a named provision', () => {
  const hit = (id: number, section_path: string, body: string, score: number): HybridHit => {
    const vector = new Float32Array(8);
    vector[id] = 1;
    const chunk = storedChunk({ chunk_id: `00000000-0000-5000-8000-00000000000${id}`, doc_id: 'doc-rep', section_path, body, chunk_index: id, total_chunks: 3, doc_type: 'standard', jurisdiction: 'INT' });
    return hybridHit(chunk, score, { bm25: 1, vector });
  };
  const CANDIDATES = [
    hit(1, '1. Introduction', 'The records exchange protocol moves records between organisations with their metadata.', 1),
    hit(2, '2. Terminology', 'A record is a document exchanged under the records exchange protocol.', 0.8),
    hit(3, '4. Message Format > 4.2. Payload', 'A receiver MUST accept payloads of up to 64 MiB.', 0.2),
  ];
  const rank = createAgentRanking({ reranker: createLexicalReranker(), store: { fetchByIds: async () => [] } });
  const ranked = (query: string) => rank({ runId: 'r', query, queryVector: new Float32Array(8), intent: 'lookup', candidates: CANDIDATES, weights: {}, memory: new Map(), keep: 3 });

  it('leads when the question names it, though other sections share more of its words', async () => {
    const named = await ranked('What does section 4.2 of the records exchange protocol say?');
    expect(named.map((c) => c.hit.chunk.section_path)[0]).toBe('4. Message Format > 4.2. Payload');
    expect(named.map((c) => c.terms.rankAfter)).toEqual([1, 2, 3]);
    expect((await ranked('What does the records exchange protocol say about payloads?')).map((c) => c.hit.chunk.section_path)[0]).not.toBe('4. Message Format > 4.2. Payload');
  });
});
