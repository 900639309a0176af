/**
 * Finds tests that decide pass or fail by how long something took: on a busy machine the same
 * code passes or fails by chance. Speed is measured by `npm run bench`; a test may only put a
 * generous deadline on a wait (see settlesWithin), never compare a measured duration.
 */

/** `expect(<a duration>).toBeLessThan…(…)`: a value named as one (ms, elapsed, …) held under a bound. */
const DURATION_UNDER = /expect\(\s*[\w.]*\b(?:ms|millis|elapsed|duration|took|latency)\b[\w.]*\s*(?:,[^)]*)?\)\s*\.\s*toBeLessThan(?:OrEqual)?\(/u;
/** `expect(Date.now() - t0)…` or `performance.now()`: a clock difference compared with anything. */
const CLOCK_DIFFERENCE = /expect\(\s*(?:Date|performance)\.now\(\)\s*-/u;

/** The lines of `source` that compare a measured duration with a number, as `line: text`. */
export function durationAssertions(source: string): string[] {
  return source.split('\n').flatMap((line, i) => {
    const code = line.trim();
    // Quoted examples and comments are not assertions.
    if (/^(?:['"`]|\/\/|\/?\*)/u.test(code)) return [];
    return DURATION_UNDER.test(code) || CLOCK_DIFFERENCE.test(code) ? [`${i + 1}: ${code}`] : [];
  });
}

/**
 * Resolves with `promise`'s value, or rejects naming `what` when it has not settled within
 * `deadlineMs`: a hang guard for a wait that should end, far above how long it takes.
 */
export async function settlesWithin<T>(promise: Promise<T>, deadlineMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
