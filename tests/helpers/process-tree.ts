import { readdirSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';

/** Process trees are read from Linux's /proc; elsewhere the tests that need it say so and skip. */
export const HAVE_PROC = process.platform === 'linux';

/** Every live pid with its parent pid, from /proc/<pid>/stat. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') out.set(Number(name), Number(fields[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

/** `root` and every live descendant of it. */
export function descendants(root: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of byParent.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/** The live ones of `pids` (zombies, which are already dead, excluded). */
export function alive(pids: readonly number[]): number[] {
  const live = parents();
  return pids.filter((pid) => live.has(pid));
}

/** A process's command line, for messages that say what was left running. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '(gone)';
  }
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `check` every 100 ms until it holds, or throws naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
