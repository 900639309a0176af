/**
 * What a failed job's status record says: a code and a message, read back from the job's
 * `failedReason` (all a job keeps of its error once it is in the failed set, so the reconciler,
 * in another process and later, reads the same thing the worker's `failed` event does).
 */

/** The reason BullMQ's stalled-job checker gives a job it fails after `maxStalledCount` stalls. */
export const STALL_LIMIT_REASON = 'job stalled more than allowable limit';

/** A job cancelled with this reason goes back to the queue instead of failing. */
export const SHUTDOWN_REASON = 'shutdown';

const CODED = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/;

/** `CODE: message`, the form the runtime gives every error it hands to BullMQ. */
export function codedReason(code: string, message: string): string {
  return `${code}: ${message}`;
}

/**
 * The status error of a failed job from its `failedReason`: the stall limit is `WORKER_LOST`, a
 * reason in `CODE: message` form keeps its code, anything else (an error BullMQ itself raised)
 * is `INTERNAL` with the reason as message.
 */
export function failureOfReason(reason: string | undefined | null): { code: string; message: string } {
  const text = (reason ?? '').trim();
  if (text.includes(STALL_LIMIT_REASON)) {
    return {
      code: 'WORKER_LOST',
      message: 'the worker running this job was lost (killed, out of memory) more often than the stall limit allows',
    };
  }
  const m = CODED.exec(text);
  if (m?.[1] && m[2] !== undefined) return { code: m[1], message: m[2] };
  return { code: 'INTERNAL', message: text || 'the job failed without a reason' };
}
