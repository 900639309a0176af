/**
 * HyDE (hypothetical document embeddings): when a question is worded far from the documents —
 * few of its terms appear in what the first search found ("how much did they spend on
 * buildings" against "purchases of property and equipment") — a model writes the passage a
 * document answering it would contain, and that passage is searched too. Only with a model
 * configured; the written passage is a search key, never shown, quoted or cited. Pure parts here;
 * the model call is a dependency (`AgentDeps.hypothetical`).
 */
import type { ChatMessage } from '../llm/index.ts';
import { analyseQuery, lexicalScores } from '../retrieval/index.ts';
import type { HybridHit } from '../store/index.ts';

/** Candidates whose wording is compared with the question's. */
const LOOKED_AT = 5;

/** Below this share of the question's terms in the best of them, the wording is far. */
export const FAR_COVERAGE = 0.5;

/**
 * How much of the question's wording the best of the first candidates holds, in [0, 1] (the
 * lexical matcher's term coverage); 1 for a question without content terms (nothing to miss).
 */
export function wordingCoverage(question: string, candidates: readonly HybridHit[]): number {
  const query = analyseQuery(question);
  if (query.units.length === 0) return 1;
  const texts = candidates.slice(0, LOOKED_AT).map((h) => h.chunk.body);
  if (texts.length === 0) return 0;
  return Math.max(...lexicalScores(query, texts).map((s) => s.coverage));
}

/** The prompt for the hypothetical passage: short, in the documents' register, no claims about the model. */
export function hypotheticalPrompt(question: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'Write one short passage (at most 80 words) of the kind a company report, filing, standard or policy document would print to answer the question, using the terms such documents use (line items, defined terms). Plausible placeholder figures are fine. Output only the passage.',
    },
    { role: 'user', content: JSON.stringify(question) },
  ];
}

/**
 * Two ranked hit lists as one, by reciprocal rank (k = 60): a passage both searches found rises;
 * each keeps the first list's object when both have it. At most `limit` hits.
 */
export function fuseHits(first: readonly HybridHit[], second: readonly HybridHit[], limit: number): HybridHit[] {
  const scores = new Map<string, { hit: HybridHit; score: number; order: number }>();
  let order = 0;
  for (const list of [first, second]) {
    list.forEach((hit, rank) => {
      const id = hit.chunk.chunk_id;
      const seen = scores.get(id);
      const add = 1 / (60 + rank + 1);
      if (seen) seen.score += add;
      else scores.set(id, { hit, score: add, order: order++ });
    });
  }
  return [...scores.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, Math.max(0, limit))
    .map((s) => s.hit);
}
