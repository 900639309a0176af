import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startService } from '../apps/cli/service.ts';
import { registerSource } from '../apps/watcher/register-source.ts';
import type { Config } from '../shared/config/config.ts';
import { INGEST_WORKERS } from '../workers/index.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { measureAgent, measureCandidates, type MeasureQueries } from './query-measure.ts';
import type { LatencySummary } from './query-stats.ts';

export interface MixedFigures {
  candidateP95Ms: number;
  agentP95Ms: number;
  candidate: LatencySummary;
  agent: LatencySummary;
  /** Pages indexed per second while the questions were being asked (documents indexed inside the window). */
  ingestPagesPerSec: number;
  ingestedDocs: number;
  /** The same feeder for {@link ALONE_MS} before the questions, nothing else running. */
  ingestAlonePagesPerSec: number;
}

/** Length of the ingest-alone window. */
export const ALONE_MS = 10_000;

/** How many documents may wait in the queues at once: the feeder tops up to this, so ingest never stops and never floods. */
const IN_FLIGHT = 8;

/**
 * The query measurements again, with every ingest worker running in this process and `files`
 * registered over and over under fresh source keys (new documents each round) while the
 * questions are asked. Ingest stops with the questions; the documents still in flight are left
 * to the store's directory, which the caller removes.
 */
export async function whileIngesting(
  config: Config,
  queries: MeasureQueries,
  today: string,
  tag: string,
  files: readonly string[],
  onFreshPorts: <T>(config: Config, fn: (ports: Ports) => Promise<T>) => Promise<T>,
): Promise<MixedFigures> {
  if (files.length === 0) throw new RangeError('whileIngesting needs at least one file to ingest');
  const service = await startService(config, { workers: Object.values(INGEST_WORKERS), watch: false });
  const bytes = await Promise.all(files.map(async (f) => new Uint8Array(await readFile(f))));
  const registered: string[] = [];
  let stop = false;
  let round = 0;
  const feeder = (async () => {
    while (!stop) {
      const open = await Promise.all(registered.slice(-IN_FLIGHT * 2).map((id) => service.ports.status.get(id)));
      const inFlight = open.filter((s) => s && (s.state === 'queued' || s.state === 'running')).length;
      for (let i = inFlight; i < IN_FLIGHT && !stop; i++) {
        const k = round++ % files.length;
        const r = await registerSource({ ...service.ports, prefix: config.prefix }, {
          sourceKey: `file:${tag}-${round}-${path.basename(files[k] as string)}`,
          sourceUri: pathToFileURL(files[k] as string).href,
          collector: 'bench',
          bytes: bytes[k] as Uint8Array,
          meta: {},
          fetchedAt: new Date(),
        });
        registered.push(r.docId);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    // Ingest is under way before the first timed question.
    while (registered.length < IN_FLIGHT) await new Promise((r) => setTimeout(r, 20));
    // Ingest alone first, for the same measure without questions.
    const a0 = Date.now();
    await new Promise((r) => setTimeout(r, ALONE_MS));
    const a1 = Date.now();
    const t0 = Date.now();
    const cand = await onFreshPorts(config, (fresh) => measureCandidates(fresh, queries, today));
    const agent = await onFreshPorts(config, (fresh) => measureAgent(fresh, queries, `${tag}-mixed`));
    const t1 = Date.now();
    stop = true;
    await feeder;
    const statuses = await Promise.all(registered.map((id) => service.ports.status.get(id)));
    const indexedIn = (from: number, to: number) =>
      statuses.filter((s) => s?.state === 'indexed' && Date.parse(s.updatedAt) >= from && Date.parse(s.updatedAt) <= to);
    const pagesPerSec = (docs: ReturnType<typeof indexedIn>, ms: number) =>
      Math.round((docs.reduce((n, s) => n + (s?.pageCount ?? 0), 0) / (ms / 1000)) * 10) / 10;
    const inWindow = indexedIn(t0, t1);
    return {
      candidateP95Ms: cand.latency.p95,
      agentP95Ms: agent.agent.p95,
      candidate: cand.latency,
      agent: agent.agent,
      ingestPagesPerSec: pagesPerSec(inWindow, t1 - t0),
      ingestAlonePagesPerSec: pagesPerSec(indexedIn(a0, a1), a1 - a0),
      ingestedDocs: inWindow.length,
    };
  } finally {
    stop = true;
    await feeder.catch(() => undefined);
    await service.stop();
  }
}
