import {
  applyOutcome,
  DEFAULT_PRUNE_IDLE_MS,
  decayAndPrune,
  memoryFeatures,
  memoryPolicy,
  utilityAt,
  type ChunkStats,
  type MemoryPolicy,
} from './chunk-stats.ts';
import type { ChunkStatsView, DecayReport, MemoryDelta, MemoryStore } from './memory-store.ts';

/**
 * A MemoryStore in a Map: the pure functions with no server, for the agent's and the ranker's
 * unit tests and for evaluation runs that must not touch a shared Redis. Same semantics as the
 * Redis adapter (the integration suite runs both), but nothing survives the process.
 * @throws RangeError for a half-life outside 4–8 weeks.
 */
export function createInMemoryMemoryStore(
  opts: Partial<MemoryPolicy> & { pruneIdleMs?: number; runMarkerTtlMs?: number; clock?: () => Date } = {},
): MemoryStore & { size(): number } {
  const policy = memoryPolicy(opts);
  const clock = opts.clock ?? (() => new Date());
  const markerTtlMs = opts.runMarkerTtlMs ?? 7 * 24 * 3600 * 1000;
  const stats = new Map<string, ChunkStats>();
  const runs = new Map<string, { chunkIds: Set<string>; expiresAt: number }>();

  const markerOf = (runId: string) => {
    const now = clock().getTime();
    let m = runs.get(runId);
    if (!m || m.expiresAt <= now) {
      m = { chunkIds: new Set(), expiresAt: now + markerTtlMs };
      runs.set(runId, m);
    }
    return m;
  };

  return {
    policy,
    size: () => stats.size,
    async applyOutcomes(outcomes, { runId } = {}) {
      const deltas: MemoryDelta[] = [];
      let failure: unknown;
      for (const o of outcomes) {
        const prev = stats.get(o.chunkId) ?? null;
        const at = o.at.getTime();
        const t = Math.max(prev?.utility_at ?? at, at);
        const before = { usefulCount: prev?.useful_count ?? 0, utility: prev ? utilityAt(prev, t, policy.halfLifeMs) : 0 };
        const marker = runId === undefined ? null : markerOf(runId);
        if (marker?.chunkIds.has(o.chunkId)) {
          deltas.push({ chunkId: o.chunkId, applied: false, before, after: before });
          continue;
        }
        try {
          const next = applyOutcome(prev, { queryVector: o.queryVector, intent: o.intent, entities: o.entities, at }, policy);
          stats.set(o.chunkId, next);
          if (marker) {
            marker.chunkIds.add(o.chunkId);
            marker.expiresAt = clock().getTime() + markerTtlMs;
          }
          deltas.push({ chunkId: o.chunkId, applied: true, before, after: { usefulCount: next.useful_count, utility: next.decayed_utility } });
        } catch (err) {
          failure ??= err;
        }
      }
      if (failure !== undefined) throw failure;
      return deltas;
    },
    async getMany(chunkIds, now) {
      const at = (now ?? clock()).getTime();
      const out = new Map<string, ChunkStatsView>();
      for (const chunkId of chunkIds) {
        const s = stats.get(chunkId);
        if (s) out.set(chunkId, { chunkId, stats: s, features: memoryFeatures(s, at, policy.halfLifeMs) });
      }
      return out;
    },
    async decayAll(now, { pruneBelow, pruneIdleMs = opts.pruneIdleMs ?? DEFAULT_PRUNE_IDLE_MS }) {
      if (!(pruneBelow >= 0)) throw new RangeError(`pruneBelow must be ≥ 0, got ${pruneBelow}`);
      const report: DecayReport = { scanned: 0, updated: 0, pruned: 0 };
      for (const [chunkId, s] of [...stats]) {
        report.scanned++;
        const r = decayAndPrune(s, now.getTime(), policy.halfLifeMs, { pruneBelow, pruneIdleMs });
        if (r.pruned) {
          stats.delete(chunkId);
          report.pruned++;
        } else if (r.updated && r.stats) {
          stats.set(chunkId, r.stats);
          report.updated++;
        }
      }
      return report;
    },
  };
}
