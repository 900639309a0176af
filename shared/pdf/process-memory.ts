import { readFileSync } from 'node:fs';

/** The resident set size in bytes from the text of `/proc/<pid>/status`, or null without a VmRSS line. */
export function parseVmRss(statusText: string): number | null {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(statusText);
  return m ? Number(m[1]) * 1024 : null;
}

/**
 * Resident set size of a process in bytes, read from /proc (Linux), or null when it cannot be
 * read (the process is gone, or there is no /proc). Synchronous on purpose: a few microseconds,
 * and the watchdog must not queue reads behind a busy event loop.
 */
export function readRss(pid: number): number | null {
  try {
    return parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

// USER_HZ: /proc reports CPU time in ticks of 1/100 s on every Linux architecture Node runs on.
const TICK_MS = 10;

/** User + system CPU time in ms from the text of `/proc/<pid>/stat`, or null when it does not parse. */
export function parseCpuMs(statText: string): number | null {
  // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
  const fields = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) && fields.length > 12 ? (utime + stime) * TICK_MS : null;
}

/**
 * CPU time a process has used so far (all its threads, user + system), in ms, read from /proc
 * (Linux), or null when it cannot be read. Unlike wall time it does not grow while the machine
 * is busy with other work, so a budget on it does not fail good documents on a loaded host.
 */
export function readCpuMs(pid: number): number | null {
  try {
    return parseCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}
