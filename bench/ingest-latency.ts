import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startService } from '../apps/cli/service.ts';
import { waitForDrained, waitForSettled } from '../apps/cli/wait.ts';
import type { WatchEvent } from '../apps/watcher/local-watcher.ts';
import type { Config } from '../shared/config/config.ts';
import { INGEST_WORKERS } from '../workers/index.ts';
import { createPorts } from '../workers/runtime/ports.ts';
import { latencyP50P95, parseChildren, vmHwmMb } from './ingest-stats.ts';
import { registerFiles } from './register-files.ts';

/** At most this many files are dropped one by one for the latency figure: it stays bounded on any corpus. */
export const DROP_SAMPLE = 10;

/**
 * Drop-to-searchable: each file is copied into the watched folder while the queues are idle, and
 * timed until a store query finds its chunks (the watcher's write-settle wait included).
 */
export async function dropToSearchable(config: Config, files: readonly string[]): Promise<{ p50: number | null; p95: number | null; samples: number }> {
  mkdirSync(config.watchDir, { recursive: true });
  const registered = new Map<string, string>();
  const service = await startService(config, {
    workers: Object.values(INGEST_WORKERS),
    watch: true,
    onWatchEvent: (e: WatchEvent) => {
      if (e.kind === 'registered' || e.kind === 'unchanged') registered.set(path.basename(e.file), e.result.docId);
    },
  });
  const ms: number[] = [];
  try {
    await service.watcher?.ready;
    for (const file of files.slice(0, DROP_SAMPLE)) {
      const name = path.basename(file);
      const t0 = performance.now();
      copyFileSync(file, path.join(config.watchDir, name));
      const deadline = Date.now() + 120_000;
      for (;;) {
        if (Date.now() > deadline) throw new Error(`drop-to-searchable: ${name} not searchable after 120 s`);
        const docId = registered.get(name);
        if (docId) {
          if ((await service.ports.store.countChunks({ op: 'eq', field: 'doc_id', value: docId })) > 0) break;
          const s = await service.ports.status.get(docId);
          if (s?.state === 'failed') throw new Error(`drop-to-searchable: ${name} failed (${s.errorCode ?? 'unknown'})`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      ms.push(performance.now() - t0);
      // The next file is dropped on idle queues (facet rebuild and the upsert job's completion included).
      await waitForDrained(service.ports.queues, 60_000, 10);
    }
  } finally {
    await service.stop();
  }
  return { ...latencyP50P95(ms), samples: ms.length };
}

/** The peak RSS of a process and (recursively) its children, in MB: what it used at most. */
export function processTreeHwmMb(pid: number): number {
  let total = 0;
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return ''; // the process ended between listing and reading
    }
  };
  total += vmHwmMb(read(`/proc/${pid}/status`)) ?? 0;
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return total;
  }
  for (const child of parseChildren(tasks.map((t) => read(`/proc/${pid}/task/${t}/children`)))) total += processTreeHwmMb(child);
  return total;
}

const STAGES = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert'] as const;
const BIN = path.resolve(import.meta.dirname, '../apps/cli/quarry.mjs');

function startStageProcess(stage: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'workers', 'start', '--only', stage], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.resume(); // drained, never read: errors show up as documents not settling
  return child;
}

/**
 * Each stage worker in a process of its own (one Deployment each), the files carried through
 * them; every process's peak RSS (extract with its extraction children) read at the end.
 * Only on Linux (`/proc`); elsewhere the figures are null.
 */
export async function peakRssByStage(config: Config, env: Record<string, string>, files: readonly string[]): Promise<Record<string, number | null>> {
  const procs = STAGES.map((stage) => ({ stage, child: startStageProcess(stage, env) }));
  const ports = await createPorts(config);
  try {
    const docIds = (await registerFiles({ ...ports, prefix: config.prefix }, files)).map((r) => r.docId);
    // A stage process that dies (a bad build, a crash) fails the measurement at once instead of
    // leaving the documents to time out.
    let onExit: (reason: Error) => void = () => undefined;
    const died = new Promise<never>((_, reject) => {
      onExit = reject;
    });
    died.catch(() => undefined); // the processes are stopped below on purpose: not an error then
    for (const { stage, child } of procs) child.once('exit', (code, signal) => onExit(new Error(`stage process ${stage} exited (${code ?? signal})`)));
    await Promise.race([waitForSettled(ports.status, { docIds, timeoutMs: 900_000, intervalMs: 100 }), died]);
    await waitForDrained(ports.queues, 60_000, 20);
    return Object.fromEntries(procs.map(({ stage, child }) => [stage, child.pid && process.platform === 'linux' ? processTreeHwmMb(child.pid) : null]));
  } finally {
    await Promise.all(
      procs.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await ports.close();
  }
}
