import type { MemoryUpdatePayload } from '../../queues/memory.queues.ts';
import { outcomeKeys, type MemoryOutcome } from '../../shared/memory/index.ts';
import { PermanentError } from '../../shared/errors.ts';

/** Entities counted per outcome: a query naming more is noise, not evidence. */
export const MAX_ENTITIES_PER_OUTCOME = 32;

/**
 * A run's outcomes as the store applies them: one per chunk (the first wins: a chunk cited
 * twice in one answer helped once), intent and entities normalised and deduplicated, vectors
 * as float32, the validation time as a Date.
 * @throws PermanentError INVALID_PAYLOAD for an unparseable time, an empty intent or a component
 * outside float32's range; DIMENSION_MISMATCH when the run's query vectors differ in size
 * (one run has one embedder).
 */
export function memoryUpdateStage(payload: MemoryUpdatePayload): MemoryOutcome[] {
  const at = new Date(payload.at);
  if (Number.isNaN(at.getTime())) throw new PermanentError('INVALID_PAYLOAD', `at: not a time (${payload.at})`);
  const dimension = payload.outcomes[0]?.queryVector.length ?? 0;
  const seen = new Set<string>();
  const out: MemoryOutcome[] = [];
  for (const [i, o] of payload.outcomes.entries()) {
    if (o.queryVector.length !== dimension) {
      throw new PermanentError('DIMENSION_MISMATCH', `outcome ${i}: query vector has ${o.queryVector.length} dimensions, the run's first ${dimension}`);
    }
    const chunkId = o.chunkId.toLowerCase();
    if (seen.has(chunkId)) continue;
    seen.add(chunkId);
    const queryVector = Float32Array.from(o.queryVector);
    if (!queryVector.every(Number.isFinite)) throw new PermanentError('INVALID_PAYLOAD', `outcome ${i}: query vector component outside float32 range`);
    const { intent, entities } = outcomeKeys(o.intent, o.entities);
    if (!intent) throw new PermanentError('INVALID_PAYLOAD', `outcome ${i}: empty intent`);
    out.push({ chunkId, queryVector, intent, entities: entities.slice(0, MAX_ENTITIES_PER_OUTCOME), at });
  }
  return out;
}
