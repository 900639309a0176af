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
