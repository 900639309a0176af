/**
 * Prometheus metrics of a Quarry process (`/metrics` on the gateway and on each worker's health
 * port): jobs by queue and state, stage durations, failures by error code, query latency and
 * chunk-memory updates. Labels are queue names, stages and error codes, never ids or text.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface QuarryMetrics {
  registry: Registry;
  stageDuration: Histogram<'queue'>;
  jobFailures: Counter<'queue' | 'code'>;
  queryDuration: Histogram<'outcome'>;
  memoryUpdates: Counter;
  /**
   * Sets what `quarry_jobs` reports: called on every scrape where queue counts are known. When it
   * fails (Redis down) the scrape still answers, without `quarry_jobs` series: absent, not zero.
   */
  setJobCounts(collect: () => Promise<{ queue: string; counts: Record<string, number> }[]>): void;
  /** Sets what `quarry_redis_up` reports: 1 when `probe` resolves true on a scrape, else 0. */
  setRedisProbe(probe: () => Promise<boolean>): void;
}

let metrics: QuarryMetrics | null = null;

/** The process's metrics, made on first use. */
export function quarryMetrics(): QuarryMetrics {
  if (metrics) return metrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'quarry_process_' });
  let collect: (() => Promise<{ queue: string; counts: Record<string, number> }[]>) | null = null;
  let redisProbe: (() => Promise<boolean>) | null = null;
  new Gauge({
    name: 'quarry_jobs',
    help: 'BullMQ jobs by queue and state (waiting, active, delayed, prioritized, completed, failed), read at scrape time; absent while Redis is down',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      if (!collect) return;
      this.reset();
      // A scrape is most wanted during an outage: it must answer, with the counts left out.
      const all = await collect().catch(() => []);
      for (const { queue, counts } of all) for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n);
    },
  });
  // Made by the first setRedisProbe: a process that never probes Redis reports no value, not a 0.
  const redisUpGauge = () =>
    new Gauge({
      name: 'quarry_redis_up',
      help: 'Whether Redis answered PING at scrape time (1) or not (0)',
      registers: [registry],
      async collect() {
        if (redisProbe) this.set((await redisProbe().catch(() => false)) ? 1 : 0);
      },
    });
  metrics = {
    registry,
    stageDuration: new Histogram({
      name: 'quarry_stage_duration_seconds',
      help: 'Time a worker spent on one job, by queue',
      labelNames: ['queue'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    jobFailures: new Counter({ name: 'quarry_job_failures_total', help: 'Failed job attempts by queue and error code', labelNames: ['queue', 'code'], registers: [registry] }),
    queryDuration: new Histogram({
      name: 'quarry_query_duration_seconds',
      help: 'Whole agent runs, by outcome (validated, fallback)',
      labelNames: ['outcome'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    memoryUpdates: new Counter({ name: 'quarry_memory_updates_total', help: 'Chunk-memory updates applied (one per chunk and outcome)', registers: [registry] }),
    setJobCounts(fn) {
      collect = fn;
    },
    setRedisProbe(fn) {
      if (!redisProbe) redisUpGauge();
      redisProbe = fn;
    },
  };
  return metrics;
}
