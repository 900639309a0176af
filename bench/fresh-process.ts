/**
 * Runs one bench measurement in a Node process started for it, so what the bench process read or
 * kept before (a JIT warmed by the previous corpus, a heap of ~1 GB) is not part of the figure.
 * The entry is a bench module that calls {@link answerIfForked} at its end.
 */
import { fork, type Serializable } from 'node:child_process';
import { needsTsLoader, tsxLoaderUrl } from '../shared/pdf/child-bootstrap.ts';

/**
 * Starts `entry` (a bench module's file; under tsx's loader when it is TypeScript), sends it
 * `request` and resolves with the one answer it sends back.
 * @throws Error when the process ends without an answer: its exit code or signal and the end of its stderr.
 */
export function runInFreshProcess<T>(entry: string, request: Serializable): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(entry, [], { execArgv: needsTsLoader(entry) ? ['--import', tsxLoaderUrl()] : [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    let answer: { value: T } | null = null;
    child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2_000)));
    child.on('message', (m) => void (answer = { value: m as T }));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (answer) resolve(answer.value);
      else reject(new Error(`${entry} ended (${signal ?? `exit code ${code}`}) without an answer: ${stderr.trim() || 'no output'}`));
    });
    child.send(request);
  });
}

/**
 * When this process was started by {@link runInFreshProcess} with `self` (the calling module's
 * file) as its entry: answers the one request it is sent with `handle`, then exits. Does nothing
 * in any other process, so the module stays importable.
 */
export function answerIfForked<Req, Res>(self: string, handle: (request: Req) => Promise<Res>): void {
  if (!process.send || process.argv[1] !== self) return;
  process.once('message', (request) => {
    handle(request as Req)
      .then((answer) => process.send?.(answer, () => process.exit(0)))
      .catch((err: unknown) => {
        console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
        process.exit(1);
      });
  });
}
