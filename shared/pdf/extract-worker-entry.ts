/**
 * Entry of the isolated extraction thread (started by isolated-extract.ts). It runs the normal
 * extraction on the transferred bytes and answers with exactly one WorkerReply.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { extractDocument } from './extract-document.ts';
import { serialiseError, type WorkerReply, type WorkerRequest } from './worker-protocol.ts';

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
  const request = (workerData as { request: WorkerRequest }).request;
  port.postMessage(await run(request));
}
