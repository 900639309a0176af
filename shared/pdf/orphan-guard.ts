import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Set in an extraction child's environment when its pool runs an {@link OrphanGuard}: the child
 * then starts no watch thread of its own (extract-child-entry.ts).
 */
export const GUARDED_ENV = 'QUARRY_EXTRACT_GUARDED';

/**
 * Kills a pool's extraction children if this process dies without closing the pool (SIGKILL, an
 * OOM kill): one `sh` reading child pids from a pipe. When this process dies, the kernel closes
 * the pipe, `read` meets its end, and the shell SIGKILLs every child still listed — even one whose
 * main loop pdf.js keeps busy, which could not notice by itself. One shell (~1 MB) per pool
 * instead of a watch thread (~11 MB) in every child.
 */
export interface OrphanGuard {
  /** A child to kill with this process. */
  add(pid: number): void;
  /** A child that ended (its pid may be reused). */
  remove(pid: number): void;
  /** Ends the guard without killing anything (the pool closes its children itself). */
  close(): void;
}

// `+pid` lists a child, `-pid` forgets one, `q` ends quietly; end of input kills what is listed.
const SCRIPT = `
pids=" "
while IFS= read -r line; do
  case "$line" in
    +*) pids="$pids\${line#+} " ;;
    -*) pids=$(printf '%s' "$pids" | sed "s/ \${line#-} / /") ;;
    q) exit 0 ;;
  esac
done
[ "$pids" = " " ] || kill -9 $pids 2>/dev/null
exit 0
`;

/** Starts the guard, or returns null where no POSIX shell can be started (children then watch for themselves). */
export function startOrphanGuard(): OrphanGuard | null {
  if (process.platform === 'win32') return null;
  let shell: ChildProcess;
  try {
    shell = spawn('/bin/sh', ['-c', SCRIPT], { stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    return null;
  }
  let open = true;
  // Never keeps this process alive, and a guard that failed or ended only stops guarding.
  shell.on('error', () => (open = false));
  shell.on('exit', () => (open = false));
  shell.stdin?.on('error', () => (open = false));
  shell.unref();
  (shell.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  const send = (line: string): void => {
    if (open) shell.stdin?.write(`${line}\n`);
  };
  return {
    add: (pid) => send(`+${pid}`),
    remove: (pid) => send(`-${pid}`),
    close() {
      send('q');
      open = false;
      shell.stdin?.end();
    },
  };
}
