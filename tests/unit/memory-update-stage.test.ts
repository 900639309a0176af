import { describe, expect, it } from 'vitest';
import { formatChunkStats, parseNow } from '../../apps/cli/commands/memory.ts';
import { MemoryDecayPayload, memoryDecayQueue, MemoryUpdatePayload, memoryUpdateQueue } from '../../queues/memory.queues.ts';
import { PermanentError } from '../../shared/errors.ts';
import { applyOutcome, memoryFeatures, memoryPolicy, WEEK_MS } from '../../shared/memory/chunk-stats.ts';
import { createInMemoryMemoryStore } from '../../shared/memory/in-memory-memory-store.ts';
import { MAX_ENTITIES_PER_OUTCOME, memoryUpdateStage } from '../../workers/memory-update/memory-update.stage.ts';

const A = '6f0b7c52-3a7e-5f5c-9f59-2f1d7c0e8a41';
const B = '0b3c2a4e-1111-5222-8333-444455556666';
const AT = '2025-03-02T10:00:00.000Z';

const payload = (over: Partial<MemoryUpdatePayload> = {}): MemoryUpdatePayload =>
  MemoryUpdatePayload.parse({
    runId: 'run-0001',
    at: AT,
    outcomes: [
      { chunkId: A, queryVector: [0.5, 0.25], intent: ' Legal ', entities: ['출산  장려금', 'GDPR', 'gdpr', ' '] },
      { chunkId: B, queryVector: [1, 0], intent: 'how-to', entities: [] },
    ],
    ...over,
  });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof PermanentError ? err.code : `not permanent: ${String(err)}`;
  }
  return undefined;
}

describe('memory-update stage', () => {
  it('normalises intents and entities, converts vectors and the time', () => {
    const [a, b] = memoryUpdateStage(payload());
    expect(a).toMatchObject({ chunkId: A, intent: 'legal', entities: ['출산 장려금', 'gdpr'] });
    expect(a?.queryVector).toEqual(Float32Array.from([0.5, 0.25]));
    expect(a?.at.toISOString()).toBe(AT);
    expect(b?.entities).toEqual([]);
  });

  it('counts a chunk cited twice in one run once (the first citation)', () => {
    const p = payload();
    const out = memoryUpdateStage({ ...p, outcomes: [...p.outcomes, { ...p.outcomes[0]!, chunkId: A.toUpperCase(), intent: 'other' }] });
    expect(out.map((o) => [o.chunkId, o.intent])).toEqual([[A, 'legal'], [B, 'how-to']]);
  });

  it('caps entities per outcome', () => {
    const many = Array.from({ length: 60 }, (_, i) => `e${i}`);
    const [a] = memoryUpdateStage(payload({ outcomes: [{ chunkId: A, queryVector: [1], intent: 'x', entities: many }] }));
    expect(a?.entities).toHaveLength(MAX_ENTITIES_PER_OUTCOME);
  });

  it('rejects mixed dimensions, float32 overflow and empty intents as permanent', () => {
    const p = payload();
    expect(codeOf(() => memoryUpdateStage({ ...p, outcomes: [p.outcomes[0]!, { ...p.outcomes[1]!, queryVector: [1, 2, 3] }] }))).toBe('DIMENSION_MISMATCH');
    expect(codeOf(() => memoryUpdateStage({ ...p, outcomes: [{ ...p.outcomes[0]!, queryVector: [1e39, 0] }] }))).toBe('INVALID_PAYLOAD');
    expect(codeOf(() => memoryUpdateStage({ ...p, outcomes: [{ ...p.outcomes[0]!, intent: '   ' }] }))).toBe('INVALID_PAYLOAD');
  });
});

describe('memory queues', () => {
  it('validates the update payload: run id without ":", uuid chunk ids, an ISO time', () => {
    expect(MemoryUpdatePayload.safeParse({ ...payload(), runId: 'run:1' }).success).toBe(false);
    expect(MemoryUpdatePayload.safeParse({ ...payload(), at: 'yesterday' }).success).toBe(false);
    expect(MemoryUpdatePayload.safeParse({ ...payload(), outcomes: [{ chunkId: 'c1', queryVector: [1], intent: 'x', entities: [] }] }).success).toBe(false);
    expect(MemoryUpdatePayload.safeParse({ ...payload(), outcomes: [] }).success).toBe(false);
  });

  it('names jobs deterministically', () => {
    expect(memoryUpdateQueue.jobId(payload())).toBe('memory-update-run-0001');
    expect(memoryDecayQueue.jobId({ requestedAt: '2025-03-02T03:00:00Z' })).toBe(`memory-decay-${Date.UTC(2025, 2, 2, 3)}`);
    expect(() => memoryDecayQueue.jobId({})).toThrow(/requestedAt/);
    expect(MemoryDecayPayload.parse({})).toEqual({});
  });
});

describe('in-memory store (the pure functions behind the port)', () => {
  it('counts a run once per chunk and decays idempotently', async () => {
    const store = createInMemoryMemoryStore();
    const outcomes = memoryUpdateStage(payload());
    const first = await store.applyOutcomes(outcomes, { runId: 'run-1' });
    expect(first.map((d) => [d.applied, d.before.usefulCount, d.after.usefulCount, d.after.utility])).toEqual([[true, 0, 1, 1], [true, 0, 1, 1]]);
    const again = await store.applyOutcomes(outcomes, { runId: 'run-1' });
    expect(again.every((d) => !d.applied && d.after.usefulCount === 1)).toBe(true);
    const now = new Date(Date.parse(AT) + 6 * WEEK_MS);
    expect(await store.decayAll(now, { pruneBelow: 0.05 })).toEqual({ scanned: 2, updated: 2, pruned: 0 });
    expect(await store.decayAll(now, { pruneBelow: 0.05 })).toEqual({ scanned: 2, updated: 0, pruned: 0 });
    expect((await store.getMany([A], now)).get(A)?.features.decayedUtility).toBe(0.5);
    expect(await store.decayAll(new Date(Date.parse(AT) + 40 * WEEK_MS), { pruneBelow: 0.05 })).toMatchObject({ pruned: 2 });
    expect(store.size()).toBe(0);
  });
});

describe('quarry memory', () => {
  it('parses --now and names a bad one', () => {
    expect(parseNow('2025-06-01T03:00:00Z').toISOString()).toBe('2025-06-01T03:00:00.000Z');
    expect(parseNow(undefined, () => new Date(0)).getTime()).toBe(0);
    expect(() => parseNow('soon')).toThrow(/--now must be an ISO time/);
  });

  it('prints stats with the utility now and as stored', () => {
    const hl = 6 * WEEK_MS;
    const t = Date.parse(AT);
    const stats = applyOutcome(null, { queryVector: Float32Array.from([3, 4]), intent: 'legal', entities: ['gdpr'], at: t }, memoryPolicy());
    const now = new Date(t + hl);
    const out = formatChunkStats({ chunkId: A, stats, features: memoryFeatures(stats, now.getTime(), hl) }, now, hl);
    expect(out).toContain(`chunk ${A}`);
    expect(out).toMatch(/useful_count\s+1/);
    expect(out).toMatch(/utility now\s+0\.5000 \(at .*half-life 6\.0 weeks\)/);
    expect(out).toMatch(/utility stored\s+1\.0000/);
    expect(out).toMatch(/entities\s+gdpr ×1/);
    expect(out).toMatch(/query_centroid\s+2 dims, norm 5\.0000/);
  });
});
