import { Worker } from 'node:worker_threads';
import type { ExtractedDocument } from '../domain/extracted.ts';
import { PermanentError } from '../errors.ts';
import type { ExtractInput, ExtractLimits } from './limits.ts';
import { BOOTSTRAP_SOURCE, bootstrapData } from './thread-bootstrap.ts';
import { deserialiseError, type ThreadJob, type ThreadMessage } from './worker-protocol.ts';

/** Extracts PDFs away from the caller's thread. */
export interface PdfExtractor {
  /**
   * @throws PermanentError with the extraction's code (TOO_LARGE, PASSWORD_REQUIRED, CORRUPT_PDF,
   *   NO_TEXT_LAYER, UNSUPPORTED_FEATURE); EXTRACT_TIMEOUT past the deadline; TOO_LARGE when a
   *   thread runs out of heap; INTERNAL when a thread dies otherwise.
   */
  extract(input: ExtractInput, limits: ExtractLimits): Promise<ExtractedDocument>;
  /** Terminates every thread; jobs still running fail with INTERNAL. */
  close(): Promise<void>;
}

export interface ExtractionPoolOptions {
  /** Threads at most (started on demand). @defaultValue 2 */
  size?: number;
  /** Deadline of one extraction, counted from when a ready thread takes it, in ms. */
  timeoutMs: number;
  /** V8 old-generation heap limit of each thread, in MB (pdf.js image buffers live outside it). */
  maxHeapMb: number;
  /** A thread is replaced after this many jobs, so whatever pdf.js leaks stays bounded. @defaultValue 50 */
  maxJobsPerThread?: number;
}

const ENTRY = new URL('./extract-worker-entry.ts', import.meta.url).href;

interface Task {
  input: ExtractInput;
  limits: ExtractLimits;
  resolve: (doc: ExtractedDocument) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  jobs: number;
  current: { id: number; task: Task; timer: NodeJS.Timeout | null } | null;
}

/**
 * A pool of extraction threads, each with a heap limit; every job has a deadline. A thread that
 * times out, runs out of memory or dies fails only its own job and is replaced; starting a thread
 * (loading pdf.js, ~0.3–1 s) is paid once per thread rather than once per document.
 */
export function createExtractionPool(options: ExtractionPoolOptions): PdfExtractor {
  const size = Math.max(1, options.size ?? 2);
  const maxJobs = options.maxJobsPerThread ?? 50;
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  function retire(slot: Slot): void {
    slots.splice(slots.indexOf(slot), 1);
    void slot.worker.terminate();
  }

  function fail(slot: Slot, err: Error): void {
    const current = slot.current;
    slot.current = null;
    if (current?.timer) clearTimeout(current.timer);
    current?.task.reject(err);
    if (slots.includes(slot)) retire(slot);
    pump();
  }

  function spawn(): Slot {
    const worker = new Worker(BOOTSTRAP_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: bootstrapData(ENTRY),
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
    });
    const slot: Slot = { worker, ready: false, jobs: 0, current: null };
    worker.on('message', (msg: ThreadMessage) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        if (slot.current) start(slot);
        else pump();
        return;
      }
      const current = slot.current;
      if (!current || current.id !== msg.id) return;
      if (current.timer) clearTimeout(current.timer);
      slot.current = null;
      if (msg.reply.ok) current.task.resolve(msg.reply.doc);
      else current.task.reject(deserialiseError(msg.reply.error));
      if (slot.jobs >= maxJobs) retire(slot);
      else worker.unref();
      pump();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      fail(
        slot,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new PermanentError('TOO_LARGE', `PDF needs more than the ${options.maxHeapMb} MB heap allowed for extraction`, { cause: err })
          : new PermanentError('INTERNAL', `extraction thread failed: ${err.message}`, { cause: err }),
      );
    });
    worker.on('exit', (code) => {
      if (slot.current) fail(slot, new PermanentError('INTERNAL', `extraction thread exited with code ${code} before answering`));
      else if (slots.includes(slot)) slots.splice(slots.indexOf(slot), 1);
    });
    slots.push(slot);
    return slot;
  }

  /** Sends the slot's job once its thread is ready; the deadline starts now, not at spawn. */
  function start(slot: Slot): void {
    const current = slot.current;
    if (!current || !slot.ready) return;
    slot.jobs += 1;
    slot.worker.ref();
    current.timer = setTimeout(() => {
      fail(slot, new PermanentError('EXTRACT_TIMEOUT', `PDF extraction did not finish within ${options.timeoutMs} ms and was stopped`));
    }, options.timeoutMs);
    const { input, limits } = current.task;
    // One copy, transferred: the caller keeps its bytes, the thread owns its own.
    const bytes = input.bytes.slice();
    const job: ThreadJob = { id: current.id, request: input.password === undefined ? { bytes, limits } : { bytes, limits, password: input.password } };
    slot.worker.postMessage(job, [bytes.buffer]);
  }

  function pump(): void {
    while (queue.length && !closed) {
      const slot = slots.find((s) => !s.current) ?? (slots.length < size ? spawn() : undefined);
      if (!slot) return;
      const task = queue.shift() as Task;
      slot.current = { id: nextId++, task, timer: null };
      start(slot);
    }
  }

  return {
    extract(input, limits) {
      if (closed) return Promise.reject(new PermanentError('INTERNAL', 'the extraction pool is closed'));
      const bytes = input.bytes.byteLength;
      // Refuse oversize files before paying for a thread (and the copy).
      if (bytes > limits.maxBytes) return Promise.reject(new PermanentError('TOO_LARGE', `PDF is ${bytes} bytes, over the ${limits.maxBytes}-byte limit`));
      return new Promise<ExtractedDocument>((resolve, reject) => {
        queue.push({ input, limits, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new PermanentError('INTERNAL', 'the extraction pool closed'));
      await Promise.all([...slots].map((slot) => fail(slot, new PermanentError('INTERNAL', 'the extraction pool closed'))));
    },
  };
}
