/**
 * Entry of a pooled extraction child process (started by extraction-pool.ts with an IPC channel
 * using structured-clone serialisation). It says `ready` once its modules and pdf.js are loaded, then runs
 * one extraction per message: `opened` with the page count as soon as it is known, then `reply`.
 */
import { Worker } from 'node:worker_threads';
import { getResolvedPDFJS } from 'unpdf';
import { extractDocument } from './extract-document.ts';
import { GUARDED_ENV } from './orphan-guard.ts';
import { serialiseError, type ChildJob, type ChildMessage, type WorkerReply } from './worker-protocol.ts';

/**
 * Kills this process once its parent is gone, where the pool runs no orphan guard (no POSIX
 * shell; see orphan-guard.ts). It runs on a thread of its own because pdf.js
 * (in-thread "fake worker" mode) can keep this process's main loop busy with promise callbacks
 * for as long as a document takes, so neither the IPC 'disconnect' event nor a timer on the main
 * thread would fire: an extract worker SIGKILLed mid-bomb would leave an orphan nobody watches.
 */
const ORPHAN_WATCH = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.ppid) process.kill(workerData.pid, 'SIGKILL');
}, workerData.everyMs);
`;

function send(msg: ChildMessage): void {
  process.send?.(msg);
}

async function run(job: ChildJob): Promise<WorkerReply> {
  const { limits, ...input } = job.request;
  try {
    // The bytes are this process's own copy (deserialised from IPC): pdf.js may take them as they are.
    const doc = await extractDocument(input, limits, {
      ownsBytes: true,
      onOpened: (pageCount) => send({ type: 'opened', id: job.id, pageCount }),
    });
    return { ok: true, doc };
  } catch (err) {
    return { ok: false, error: serialiseError(err) };
  }
}

// Only act as a child: importing this module elsewhere (a type check, a test) does nothing.
if (process.send) {
  // The pool's orphan guard (orphan-guard.ts) kills this process with its parent; without one, a thread does.
  if (process.env[GUARDED_ENV] !== '1') {
    new Worker(ORPHAN_WATCH, { eval: true, workerData: { ppid: process.ppid, pid: process.pid, everyMs: 200 } }).unref();
  }
  process.on('message', (job: ChildJob) => {
    void run(job).then((reply) => send({ type: 'reply', id: job.id, reply }));
  });
  // The parent going away (killed, crashed) closes the channel: nothing is left to answer to.
  process.on('disconnect', () => process.exit(0));
  // A terminal's Ctrl-C signals the whole foreground process group, this child included: the
  // parent decides when it ends (it lets running extractions finish within its grace period),
  // so the interrupt must not fail the document being read.
  process.on('SIGINT', () => undefined);
  // pdf.js is loaded before the child says it is ready (~0.5–1 s): a pool started ahead of its
  // first job (warm) then hands that job a child that parses at once.
  void getResolvedPDFJS().then(
    () => send({ type: 'ready' }),
    // Not fatal here: the first extraction fails with the same cause, reported for its document.
    () => send({ type: 'ready' }),
  );
}
