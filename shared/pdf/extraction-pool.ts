import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { ExtractedDocument } from '../domain/index.ts';
import { PermanentError, RetryableError } from '../errors.ts';
import { childEntryPath, childEnv, childExecArgv } from './child-bootstrap.ts';
import { extractDeadlineMs } from './extract-deadline.ts';
import { chooseChild } from './child-choice.ts';
import { DEFAULT_MAX_JOBS_PER_CHILD, DEFAULT_SPARE_SLOTS, DEFAULT_SPREAD_AFTER_MS, type ExtractionPoolOptions } from './extraction-pool-options.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';
import { readCpuMs, readRss } from './process-memory.ts';
import type { PdfExtractor } from './pdf-extractor.ts';
import { deserialiseError, type ChildJob, type ChildMessage } from './worker-protocol.ts';
import { GUARDED_ENV, startOrphanGuard, type OrphanGuard } from './orphan-guard.ts';

// `.ts` from sources, `.js` once compiled: the entry sits beside this module either way.
const ENTRY = childEntryPath(import.meta.url, 'extract-child-entry');
const MB = 1024 * 1024;
// What V8 prints when a heap limit is hit, before a native stack trace of several KB; the child then aborts.
const HEAP_OOM = /out of memory|Allocation failed/i;
// Enough of the previous stderr chunk to catch the message when it is split across two chunks.
const STDERR_OVERLAP = 64;

interface Task {
  input: ExtractInput;
  limits: ExtractLimits;
  resolve: (doc: ExtractedDocument) => void;
  reject: (err: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  /** When it was queued (Date.now()). */
  queuedAt: number;
}

interface Running {
  id: number;
  task: Task;
  timer: NodeJS.Timeout | null;
  startedAt: number | null;
  /** CPU time of the child when the job started (null: not readable, the budget is wall time). */
  cpuAtStart: number | null;
  pages: number | null;
}

interface Slot {
  child: ChildProcess;
  spare: boolean;
  ready: boolean;
  jobs: number;
  /** The end of what the child wrote to stderr so far (only for `heapOom` across chunks). */
  stderrTail: string;
  /** The child said it ran out of heap: its exit is TOO_LARGE, not INTERNAL. */
  heapOom: boolean;
  current: Running | null;
  exited: Promise<void>;
  /** Settles when the child says it is ready, or when it ends before that. */
  started: Promise<void>;
  markStarted: () => void;
}

function cancelled(): RetryableError {
  return new RetryableError('CANCELLED', 'PDF extraction was cancelled (shutdown); the job can run again');
}

/**
 * A pool of extraction child processes. Each child has a V8 heap limit and is watched from here:
 * its resident memory (which, unlike the heap limit, counts pdf.js's decoded buffers) is read
 * from /proc every few ms and a child over `maxRssMb` is SIGKILLed, so a decompression bomb fails
 * in seconds with TOO_LARGE and this process's memory never grows. Every job has a CPU-time
 * budget scaled to its size and pages, and a wall-clock deadline (`timeoutMs`); a child that
 * times out, is cancelled, runs out of memory or dies
 * fails only its own job and is replaced. Starting a child (loading pdf.js, ~0.5–1 s) is paid
 * once per child rather than once per document; a child is recycled after `maxJobsPerChild` jobs
 * or as soon as a job left it holding more than half its memory limit. Jobs gather on the children
 * that have done work (child-choice.ts): a stream of quick documents one child keeps up with never
 * pays a second child's warm-up.
 */
export function createExtractionPool(options: ExtractionPoolOptions): PdfExtractor {
  const size = Math.max(1, options.size ?? 2);
  const spareSlots = Math.max(0, options.spareSlots ?? DEFAULT_SPARE_SLOTS);
  const slowAfterMs = options.slowAfterMs ?? 3000;
  const spreadAfterMs = options.spreadAfterMs ?? DEFAULT_SPREAD_AFTER_MS;
  const maxJobs = options.maxJobsPerChild ?? DEFAULT_MAX_JOBS_PER_CHILD;
  const maxRssMb = options.maxRssMb ?? 448;
  const maxRss = maxRssMb * MB;
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;
  let watch: NodeJS.Timeout | null = null;

  function settle(current: Running): void {
    if (current.timer) clearTimeout(current.timer);
    current.task.signal?.removeEventListener('abort', current.task.onAbort);
  }

  function retire(slot: Slot): void {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
    slot.child.kill('SIGKILL');
  }

  /** Fails the slot's job (if any) with `err`, kills its child and moves on. */
  function fail(slot: Slot, err: Error): void {
    const current = slot.current;
    slot.current = null;
    retire(slot);
    if (current) {
      settle(current);
      current.task.reject(err);
    }
    pump();
  }

  function idle(slot: Slot): void {
    slot.child.unref();
    slot.child.channel?.unref();
  }

  function onMessage(slot: Slot, msg: ChildMessage): void {
    if (msg.type === 'ready') {
      slot.ready = true;
      slot.markStarted();
      if (slot.current) start(slot);
      else pump();
      return;
    }
    const current = slot.current;
    if (!current || current.id !== msg.id) return;
    if (msg.type === 'opened') {
      current.pages = msg.pageCount;
      arm(slot);
      return;
    }
    settle(current);
    slot.current = null;
    if (msg.reply.ok) current.task.resolve(msg.reply.doc);
    else current.task.reject(deserialiseError(msg.reply.error));
    // Whatever a big document left behind goes with its child, not into the next job.
    const rss = slot.child.pid === undefined ? null : readRss(slot.child.pid);
    if (slot.jobs >= maxJobs || (rss !== null && rss > maxRss / 2)) {
      retire(slot);
      // Its successor starts now rather than on the next job, which then finds pdf.js loaded.
      if (!slot.spare && !closed && !slots.some((s) => !s.spare)) idle(spawn(false));
    } else idle(slot);
    pump();
    if (slot.spare && !slot.current) retire(slot);
  }

  function onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (!slot.current) {
      if (slots.includes(slot)) slots.splice(slots.indexOf(slot), 1);
      return;
    }
    const err = slot.heapOom
      ? new PermanentError('TOO_LARGE', `PDF needs more than the ${Math.min(options.maxHeapMb, maxRssMb)} MB heap allowed for extraction`)
      : new PermanentError('INTERNAL', `extraction child exited (${signal ?? `code ${code}`}) before answering`);
    fail(slot, err);
  }

  // Started with the first child: kills the children if this process dies without closing the pool.
  let guard: OrphanGuard | null | undefined;

  function spawn(spare: boolean): Slot {
    guard ??= startOrphanGuard();
    const child = fork(ENTRY, [], {
      env: childEnv(process.env, guard ? { [GUARDED_ENV]: '1' } : {}),
      // The heap limit never exceeds the memory limit: a JS-heap runaway then ends in V8's quick abort.
      execArgv: childExecArgv(Math.min(options.maxHeapMb, maxRssMb), ENTRY),
      // Structured clone over IPC: the PDF bytes and the result cross as typed data, not JSON.
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let exited: () => void = () => undefined;
    let started: () => void = () => undefined;
    const slot: Slot = {
      child,
      spare,
      ready: false,
      jobs: 0,
      stderrTail: '',
      heapOom: false,
      current: null,
      exited: new Promise((r) => (exited = r)),
      started: new Promise((r) => (started = r)),
      markStarted: () => started(),
    };
    const stderr = child.stderr as Socket | null;
    stderr?.setEncoding('utf8');
    stderr?.on('data', (chunk: string) => {
      // Scanned as it arrives: the stack trace V8 prints after the message can push it out of any tail.
      const seen = slot.stderrTail + chunk;
      if (HEAP_OOM.test(seen)) slot.heapOom = true;
      slot.stderrTail = seen.slice(-STDERR_OVERLAP);
    });
    stderr?.unref();
    child.on('message', (msg: ChildMessage) => onMessage(slot, msg));
    child.on('error', (err) => {
      // A child that never started emits no 'close': nothing will be reaped, so stop waiting for it.
      if (child.pid === undefined) {
        exited();
        started();
      }
      fail(slot, new PermanentError('INTERNAL', `extraction child failed: ${err.message}`, { cause: err }));
    });
    if (child.pid !== undefined) guard?.add(child.pid);
    // 'close' (not 'exit') so the stderr tail is complete when the cause is read.
    child.on('close', (code, signal) => {
      if (child.pid !== undefined) guard?.remove(child.pid);
      exited();
      started();
      onExit(slot, code, signal);
    });
    slots.push(slot);
    return slot;
  }

  function budgetMs(current: Running): number {
    return extractDeadlineMs(current.task.input.bytes.byteLength, current.pages, options.timeoutMs, options.deadline);
  }

  /**
   * (Re)sets the job's wall-clock timer: EXTRACT_TIMEOUT_MS when the scaled budget is counted in
   * CPU time (by `tick`), else the scaled budget itself, from its size and, once known, its pages.
   */
  function arm(slot: Slot): void {
    const current = slot.current;
    if (!current || current.startedAt === null) return;
    if (current.timer) clearTimeout(current.timer);
    const deadline = current.cpuAtStart === null ? budgetMs(current) : options.timeoutMs;
    const left = Math.max(0, deadline - (Date.now() - current.startedAt));
    current.timer = setTimeout(() => {
      fail(slot, new PermanentError('EXTRACT_TIMEOUT', `PDF extraction did not finish within ${deadline} ms and was stopped`));
    }, left);
  }

  /** Sends the slot's job once its child is ready; the deadline starts now, not at spawn. */
  function start(slot: Slot): void {
    const current = slot.current;
    if (!current || !slot.ready) return;
    slot.jobs += 1;
    slot.child.ref();
    slot.child.channel?.ref();
    current.startedAt = Date.now();
    current.cpuAtStart = slot.child.pid === undefined ? null : readCpuMs(slot.child.pid);
    arm(slot);
    startWatch();
    const { input, limits } = current.task;
    const job: ChildJob = { id: current.id, request: { ...input, limits } };
    slot.child.send(job, (err) => {
      if (err && slot.current === current) fail(slot, new PermanentError('INTERNAL', `could not hand the PDF to its extraction child: ${err.message}`, { cause: err }));
    });
  }

  /**
   * Kills children over the memory limit or over their CPU budget; lets a spare child start while
   * the regular ones are slow.
   */
  function tick(): void {
    for (const slot of [...slots]) {
      const current = slot.current;
      if (!current || slot.child.pid === undefined) continue;
      const rss = readRss(slot.child.pid);
      if (rss !== null && rss > maxRss) {
        fail(slot, new PermanentError('TOO_LARGE', `PDF extraction needed more than ${maxRssMb} MB of memory and was stopped (a decompression bomb, or far too big)`));
        continue;
      }
      const cpu = current.cpuAtStart === null ? null : readCpuMs(slot.child.pid);
      if (cpu !== null && current.cpuAtStart !== null && cpu - current.cpuAtStart > budgetMs(current)) {
        fail(slot, new PermanentError('EXTRACT_TIMEOUT', `PDF extraction used more than its ${budgetMs(current)} ms of CPU time and was stopped`));
      }
    }
    if (queue.length) pump();
    if (!slots.some((s) => s.current) && watch) {
      clearInterval(watch);
      watch = null;
    }
  }

  function startWatch(): void {
    if (watch) return;
    watch = setInterval(tick, options.watchIntervalMs ?? 25);
    watch.unref();
  }

  /** The child that takes the head of the queue (started if need be), or none yet. */
  function freeSlot(head: Task): Slot | undefined {
    const now = Date.now();
    const views = slots.map((s) => ({
      spare: s.spare,
      busy: s.current !== null,
      jobs: s.jobs,
      runningMs: s.current?.startedAt == null ? null : now - s.current.startedAt,
    }));
    const choice = chooseChild(views, { size, spareSlots, slowAfterMs, spreadAfterMs, waitedMs: now - head.queuedAt, part: head.input.part !== undefined });
    if (!choice) return undefined;
    return 'take' in choice ? slots[choice.take] : spawn(choice.spawn === 'spare');
  }

  function pump(): void {
    while (queue.length && !closed) {
      const slot = freeSlot(queue[0] as Task);
      if (!slot) return;
      const task = queue.shift() as Task;
      slot.current = { id: nextId++, task, timer: null, startedAt: null, cpuAtStart: null, pages: null };
      start(slot);
    }
  }

  function abort(task: Task): void {
    const queued = queue.indexOf(task);
    if (queued >= 0) {
      queue.splice(queued, 1);
      task.reject(cancelled());
      return;
    }
    const slot = slots.find((s) => s.current?.task === task);
    if (slot) fail(slot, cancelled());
  }

  return {
    extract(input, limits, callOptions = {}) {
      if (closed) return Promise.reject(new PermanentError('INTERNAL', 'the extraction pool is closed'));
      const { signal } = callOptions;
      if (signal?.aborted) return Promise.reject(cancelled());
      const bytes = input.bytes.byteLength;
      // Refuse oversize files before paying for a child (and the copy).
      if (bytes > limits.maxBytes) return Promise.reject(new PermanentError('TOO_LARGE', `PDF is ${bytes} bytes, over the ${limits.maxBytes}-byte limit`));
      return new Promise<ExtractedDocument>((resolve, reject) => {
        const task: Task = { input, limits, resolve, reject, signal, onAbort: () => abort(task), queuedAt: Date.now() };
        signal?.addEventListener('abort', task.onAbort, { once: true });
        queue.push(task);
        pump();
      });
    },
    async warm(children = 1) {
      if (closed) return;
      const want = Math.max(1, Math.min(size, Math.floor(children)));
      const regular = slots.filter((s) => !s.spare);
      while (regular.length < want) regular.push(spawn(false));
      const warming = regular.slice(0, want);
      // Unlike a child started for a job, nothing waits on these: they must not keep the process alive.
      for (const slot of warming) if (!slot.current) idle(slot);
      await Promise.all(warming.map((slot) => slot.started));
    },
    async close() {
      closed = true;
      if (watch) clearInterval(watch);
      watch = null;
      for (const task of queue.splice(0)) {
        task.signal?.removeEventListener('abort', task.onAbort);
        task.reject(new PermanentError('INTERNAL', 'the extraction pool closed'));
      }
      const all = [...slots];
      for (const slot of all) {
        // An idle child is unref'd: without this the caller's process could exit before it is reaped.
        slot.child.ref();
        fail(slot, new PermanentError('INTERNAL', 'the extraction pool closed'));
      }
      await Promise.all(all.map((slot) => slot.exited));
      guard?.close();
      guard = undefined;
    },
  };
}
