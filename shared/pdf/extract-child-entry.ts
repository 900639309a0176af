/**
 * Entry of a pooled extraction child process (started by extraction-pool.ts with an IPC channel
 * using structured-clone serialisation). It says `ready` once its modules are loaded, then runs
 * one extraction per message: `opened` with the page count as soon as it is known, then `reply`.
 */
import { extractDocument } from './extract-document.ts';
import { serialiseError, type ChildJob, type ChildMessage, type WorkerReply } from './worker-protocol.ts';

function send(msg: ChildMessage): void {
  process.send?.(msg);
}

async function run(job: ChildJob): Promise<WorkerReply> {
  const { request } = job;
  try {
    const input = request.password === undefined ? { bytes: request.bytes } : { bytes: request.bytes, password: request.password };
    // The bytes are this process's own copy (deserialised from IPC): pdf.js may take them as they are.
    const doc = await extractDocument(input, request.limits, {
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
  process.on('message', (job: ChildJob) => {
    void run(job).then((reply) => send({ type: 'reply', id: job.id, reply }));
  });
  // The parent going away (killed, crashed) closes the channel: nothing is left to answer to.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}
