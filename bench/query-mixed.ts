import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerSource } from '../core/sources/register-source.ts';
import type { Config } from '../shared/config/config.ts';
import { WORKER_PROCESS_ENV } from '../k8s/spec.ts';
import { createPorts } from '../workers/compose.ts';
import type { Ports } from '../workers/runtime/ports.ts';
import { buildDist, COMPILED_BIN } from './build-dist.ts';
import { besideMemoryNeighbours } from './memory-neighbours.ts';
import { measureAgent, measureCandidates, type MeasureQueries } from './query-measure.ts';
import type { LatencySummary } from './query-stats.ts';

export interface MixedFigures {
  candidateP95Ms: number;
  agentP95Ms: number;
  candidate: LatencySummary;
  agent: LatencySummary;
  /** Mean ms per agent graph node while ingesting (see AgentFigures). */
  agentNodesMeanMs: Record<string, number>;
  /** Pages indexed per second while the questions were being asked (documents indexed inside the window). */
  ingestPagesPerSec: number;
  ingestedDocs: number;
  /** The same feeder for {@link ALONE_MS} before the questions, nothing else running. */
  ingestAlonePagesPerSec: number;
  /**
   * The same two series asked just before the ingest workers started (the machine is shared:
   * idle figures taken minutes earlier can differ by the other load), and the ratios to them.
   */
  idleBefore: { candidateP95Ms: number; agentP95Ms: number; candidateRatio: number; agentRatio: number; agentNodesMeanMs: Record<string, number> };
  /**
   * The candidate series once more, just before the ingest, beside {@link NEIGHBOURS} processes
   * at the workers' nice value that only touch memory: `candidateRatio` is what the machine alone
   * takes from a search while something else works (÷ idle just before), `ingestRatio` the rest of
   * what the ingest costs it, its CPU beside the search and the store it writes (while ingesting ÷
   * beside them).
   */
  besideMemoryNeighbours: { candidateP95Ms: number; candidateRatio: number; ingestRatio: number; neighbours: number; mbEach: number };
  /** WORKER_NICE of the ingest worker processes (the questions are asked at the bench's own priority). */
  workerNice: number;
  /** What the measurement models, in words. */
  model: string;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : Number.NaN);

/** Length of the ingest-alone window. */
export const ALONE_MS = 10_000;

/** How many documents may wait in the queues at once: the feeder tops up to this, so ingest never stops and never floods. */
const IN_FLIGHT = 8;

/** The neighbours of the hardware-floor series: as many as the cores this bench models, each writing over more than their shared cache. */
const NEIGHBOURS = { count: 2, mb: 256 } as const;

/** The ingest stages, each started as a worker process of its own as a Deployment would run it. */
const INGEST_STAGES = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'] as const;

/** What the mixed-workload measurement models, for the report (the nice value is reported beside it). */
export const MIXED_MODEL =
  "every ingest stage a worker process of its own (compiled, one per Deployment, with the manifests' process settings) " +
  'at the measured WORKER_NICE, on the same store and cores as the questions, which this process asks one at a time at ' +
  'nice 0 (the agent and gateway of a single host); no facet-rebuild worker (its store maintenance would re-index mid-run)';

function startStage(stage: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [COMPILED_BIN, 'workers', 'start', '--only', stage], {
    env: { ...process.env, ...WORKER_PROCESS_ENV, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.resume(); // drained, never read: a worker that fails shows up as no pages ingested
  return child;
}

async function stopAll(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

/**
 * The query measurements again while documents are ingested: every ingest stage runs as a
 * compiled worker process of its own on the same store (`env` is the store's and Redis's
 * configuration as environment variables), with `WORKER_NICE=workerNice`, and `files` are
 * registered over and over under fresh source keys (new documents each round). Ingest runs
 * alone for {@link ALONE_MS} once the first document is indexed (the processes started and
 * warm), then the questions are asked; ingest stops with them. Before the ingest starts, the
 * questions are asked idle, and the candidate series beside memory-touching neighbours (the
 * hardware's share). Documents still in flight are left to the store's directory, which the
 * caller removes.
 */
export async function whileIngesting(
  config: Config,
  env: Record<string, string>,
  workerNice: number,
  queries: MeasureQueries,
  today: string,
  tag: string,
  files: readonly string[],
  onFreshPorts: <T>(config: Config, fn: (ports: Ports) => Promise<T>) => Promise<T>,
): Promise<MixedFigures> {
  if (files.length === 0) throw new RangeError('whileIngesting needs at least one file to ingest');
  await buildDist();
  // Idle again right before, for ratios measured minutes apart instead of a whole load earlier.
  const idleCand = await onFreshPorts(config, (fresh) => measureCandidates(fresh, queries, today));
  const idleAgent = await onFreshPorts(config, (fresh) => measureAgent(fresh, queries, `${tag}-idle-${workerNice}`));
  const beside = await besideMemoryNeighbours({ ...NEIGHBOURS, nice: workerNice, maxMs: 600_000 }, () => onFreshPorts(config, (fresh) => measureCandidates(fresh, queries, today)));
  const bytes = await Promise.all(files.map(async (f) => new Uint8Array(await readFile(f))));
  const ports = await createPorts(config);
  const workers = INGEST_STAGES.map((stage) => startStage(stage, { ...env, WORKER_NICE: String(workerNice) }));
  const registered: string[] = [];
  let stop = false;
  let round = 0;
  const feeder = (async () => {
    while (!stop) {
      const open = await Promise.all(registered.slice(-IN_FLIGHT * 2).map((id) => ports.status.get(id)));
      const inFlight = open.filter((s) => s && (s.state === 'queued' || s.state === 'running')).length;
      for (let i = inFlight; i < IN_FLIGHT && !stop; i++) {
        const k = round++ % files.length;
        const r = await registerSource({ ...ports, prefix: config.prefix }, {
          sourceKey: `file:${tag}-${workerNice}-${round}-${path.basename(files[k] as string)}`,
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
    // The worker processes are up and warm once a first document went all the way through.
    const deadline = Date.now() + 300_000;
    for (;;) {
      const states = await Promise.all(registered.slice(0, IN_FLIGHT).map((id) => ports.status.get(id)));
      if (states.some((s) => s?.state === 'indexed')) break;
      if (workers.some((w) => w.exitCode !== null)) throw new Error('an ingest worker process exited before the first document was indexed');
      if (Date.now() > deadline) throw new Error('no document was indexed within 300 s of starting the ingest workers');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Ingest alone first, for the same measure without questions.
    const a0 = Date.now();
    await new Promise((r) => setTimeout(r, ALONE_MS));
    const a1 = Date.now();
    const t0 = Date.now();
    const cand = await onFreshPorts(config, (fresh) => measureCandidates(fresh, queries, today));
    const agent = await onFreshPorts(config, (fresh) => measureAgent(fresh, queries, `${tag}-mixed-${workerNice}`));
    const t1 = Date.now();
    stop = true;
    await feeder;
    const statuses = await Promise.all(registered.map((id) => ports.status.get(id)));
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
      agentNodesMeanMs: agent.agentNodesMeanMs,
      ingestPagesPerSec: pagesPerSec(inWindow, t1 - t0),
      ingestAlonePagesPerSec: pagesPerSec(indexedIn(a0, a1), a1 - a0),
      ingestedDocs: inWindow.length,
      idleBefore: {
        candidateP95Ms: idleCand.latency.p95,
        agentP95Ms: idleAgent.agent.p95,
        candidateRatio: ratio(cand.latency.p95, idleCand.latency.p95),
        agentRatio: ratio(agent.agent.p95, idleAgent.agent.p95),
        agentNodesMeanMs: idleAgent.agentNodesMeanMs,
      },
      besideMemoryNeighbours: {
        candidateP95Ms: beside.latency.p95,
        candidateRatio: ratio(beside.latency.p95, idleCand.latency.p95),
        ingestRatio: ratio(cand.latency.p95, beside.latency.p95),
        neighbours: NEIGHBOURS.count,
        mbEach: NEIGHBOURS.mb,
      },
      workerNice,
      model: MIXED_MODEL,
    };
  } finally {
    stop = true;
    await feeder.catch(() => undefined);
    await stopAll(workers);
    await ports.close();
  }
}
