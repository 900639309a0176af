/**
 * Entry of a pooled extraction thread (started by extraction-pool.ts). It says `ready` once its
 * modules are loaded, then runs one extraction per message and answers each by id.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import { extractDocument } from './extract-document.ts';
import { serialiseError, type ThreadJob, type ThreadMessage, type WorkerReply, type WorkerRequest } from './worker-protocol.ts';

async function run(request: WorkerRequest): Promise<WorkerReply> {
  try {
    const input = request.password === undefined ? { bytes: request.bytes } : { bytes: request.bytes, password: request.password };
    // The bytes were transferred to this thread, so pdf.js may take them without another copy.
    return { ok: true, doc: await extractDocument(input, request.limits, { ownsBytes: true }) };
  } catch (err) {
    return { ok: false, error: serialiseError(err) };
  }
}

// Only act as a worker: importing this module elsewhere (a type check, a test) does nothing.
if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (job: ThreadJob) => {
    void run(job.request).then((reply) => port.postMessage({ type: 'reply', id: job.id, reply } satisfies ThreadMessage));
  });
  port.postMessage({ type: 'ready' } satisfies ThreadMessage);
}
