import type { Redis } from 'ioredis';
import type { QueueClient } from '../../queues/queue-client.ts';
import type { ArtifactStore } from '../../shared/artifacts/index.ts';
import type { Config } from '../../shared/config/index.ts';
import type { Embedder, EmbeddingCache } from '../../shared/embed/index.ts';
import type { MemoryStore } from '../../shared/memory/index.ts';
import type { PdfExtractor } from '../../shared/pdf/index.ts';
import type { StatusStore } from '../../shared/status/index.ts';
import type { VectorStore } from '../../shared/store/index.ts';

/**
 * Every external system a stage may touch, as interfaces only: the runtime never builds an
 * adapter. A process composes them once from its configuration (`createPorts`, workers/compose.ts)
 * and the runtime hands each stage the ones it declared it needs (see `defineStageWorker`).
 */
export interface Ports {
  config: Config;
  redis: Redis;
  queues: QueueClient;
  artifacts: ArtifactStore;
  store: VectorStore;
  embedder: Embedder;
  embeddingCache: EmbeddingCache;
  status: StatusStore;
  /** PDF extraction child processes, started on first use. */
  extractor: PdfExtractor;
  /** Per-chunk memory (ChunkStats) in the same Redis. */
  memory: MemoryStore;
}

/** The name of one port: what a stage lists in `needs`. */
export type PortName = keyof Ports;

/**
 * The named ports and no others: what a stage declared it needs is all its handler can reach, so
 * the declaration cannot drift from what the handler uses.
 */
export function pickPorts<N extends PortName>(ports: Ports, needs: readonly N[]): Pick<Ports, N> {
  const picked: Partial<Pick<Ports, N>> = {};
  for (const name of needs) picked[name] = ports[name];
  // Every name in `needs` was copied just above: the object is complete for N.
  return picked as Pick<Ports, N>;
}
