import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createExtractionPool } from '../../shared/pdf/extraction-pool.ts';
import type { PdfExtractor } from '../../shared/pdf/pdf-extractor.ts';
import { extractDeadlineMs } from '../../shared/pdf/extract-deadline.ts';
import { parseCpuMs, parseVmRss, readRss } from '../../shared/pdf/process-memory.ts';
import { contentBombPdf, flateBombPdf, manyPagesPdf, repeatedZlib } from '../fixtures/pdf-bombs.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';
import { settlesWithin } from '../helpers/timing-asserts.ts';

const LIMITS = { maxBytes: 50_000_000, maxPages: 20_000 };
const GB = 1e9;
const hasProc = (() => {
  try {
    readFileSync('/proc/self/status');
    return true;
  } catch {
    return false;
  }
})();
if (!hasProc) console.warn('extract-isolation: skipped, no /proc here (the memory watchdog and these measurements are Linux-only)');

/** The live children of `pid` (of all its threads). */
function directChildren(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number));
    } catch {
      continue;
    }
  }
  return out;
}

/** Every live descendant of `pid` (children of all its threads, recursively). */
function descendants(pid: number): number[] {
  return directChildren(pid).flatMap((child) => [child, ...descendants(child)]);
}

/** The extraction children among `pid`'s descendants (not the pool's orphan guard, a shell). */
function extractionChildren(pid: number): number[] {
  return descendants(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('extract-child-entry');
    } catch {
      return false;
    }
  });
}

/** Samples the resident memory of this process plus all its descendants until stopped; returns the peak. */
function sampleTreeRss(everyMs = 20): { stop(): number } {
  let peak = 0;
  const sample = (): void => {
    const total = [process.pid, ...descendants(process.pid)].reduce((sum, pid) => sum + (readRss(pid) ?? 0), 0);
    peak = Math.max(peak, total);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Running, not gone and not a zombie (a killed child stays one until its parent reaps it). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+[ZX]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

async function goodPdfs(n: number): Promise<Uint8Array[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => textPdf([[`Good document number ${i + 1}`, 'A second, ordinary line of text']])));
}

let pool: PdfExtractor | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('process memory', () => {
  it('reads VmRSS from /proc status text', () => {
    expect(parseVmRss('Name:\tnode\nVmPeak:\t  999 kB\nVmRSS:\t   12345 kB\nThreads:\t7\n')).toBe(12345 * 1024);
    expect(parseVmRss('Name:\tzombie\n')).toBeNull();
  });

  it('reads user + system CPU time from /proc stat text, whatever the command name holds', () => {
    const stat = '4242 (node (a) b) R 1 4242 4242 0 -1 4194304 126 0 0 0 150 25 0 0 20 0 1 0 170736 3133440 406';
    expect(parseCpuMs(stat)).toBe((150 + 25) * 10);
    expect(parseCpuMs('4242 (node) R 1')).toBeNull();
  });
});

describe('bomb generator', () => {
  it('repeats compressed blocks into a valid zlib stream (zlib checks the adler32)', () => {
    const chunk = Buffer.from('BT (abc) Tj ET\n'.repeat(5000), 'latin1');
    expect(inflateSync(repeatedZlib(chunk, 7)).equals(Buffer.concat(Array.from({ length: 7 }, () => chunk)))).toBe(true);
    expect(inflateSync(repeatedZlib(new Uint8Array(1 << 20), 3)).length).toBe(3 << 20);
  });
});

describe('extraction deadline', () => {
  it('scales with size and pages and never passes the cap', () => {
    expect(extractDeadlineMs(4 * 1024 * 1024, null, 120_000)).toBe(18_000);
    expect(extractDeadlineMs(4 * 1024 * 1024, 1, 120_000)).toBe(18_250);
    expect(extractDeadlineMs(1024 * 1024, 40, 120_000)).toBe(22_000);
    expect(extractDeadlineMs(90 * 1024 * 1024, 3000, 120_000)).toBe(120_000);
    expect(extractDeadlineMs(0, 0, 120_000, { baseMs: 50, perMibMs: 0, perPageMs: 0 })).toBe(50);
  });
});

describe.skipIf(!hasProc)('extraction children under hostile PDFs', () => {
  it('fails a 4 GiB FlateDecode bomb and a 2 GiB content-stream bomb with TOO_LARGE, fast, with the process tree under 1.5 GB; then extracts normally', async () => {
    pool = createExtractionPool({ size: 2, timeoutMs: 120_000, maxHeapMb: 512, maxRssMb: 448 });
    const rss = sampleTreeRss();
    const outcomes = await Promise.allSettled([pool.extract({ bytes: flateBombPdf(4) }, LIMITS), pool.extract({ bytes: contentBombPdf(2) }, LIMITS)]);
    const peak = rss.stop();
    expect(outcomes).toMatchObject([
      { status: 'rejected', reason: { code: 'TOO_LARGE' } },
      { status: 'rejected', reason: { code: 'TOO_LARGE' } },
    ]);
    // Ended by the memory watchdog: TOO_LARGE above (the 120 s timeout would say EXTRACT_TIMEOUT).
    expect(peak).toBeLessThan(1.5 * GB);
    const doc = await pool.extract({ bytes: (await goodPdfs(1))[0] as Uint8Array }, LIMITS);
    expect(doc.pages[0]?.lines.map((l) => l.text)).toEqual(['Good document number 1', 'A second, ordinary line of text']);
  }, 120_000);

  it('lets 20 good documents through within seconds while two bombs run', async () => {
    pool = createExtractionPool({ size: 2, timeoutMs: 120_000, maxHeapMb: 512, maxRssMb: 448 });
    const good = await goodPdfs(20);
    const started = Date.now();
    const bombs = [pool.extract({ bytes: flateBombPdf(4) }, LIMITS), pool.extract({ bytes: contentBombPdf(2) }, LIMITS)].map((p) => p.catch((e: unknown) => e));
    const done = await Promise.all(good.map((bytes) => pool?.extract({ bytes }, LIMITS).then((d) => ({ at: Date.now() - started, text: d.pages[0]?.lines[0]?.text }))));
    expect(done.map((d) => d?.text)).toEqual(good.map((_, i) => `Good document number ${i + 1}`));
    // Not held behind a bomb until the 120 s timeout: half of it, loose enough for a loaded machine.
    expect(Math.max(...done.map((d) => d?.at ?? Infinity))).toBeLessThan(60_000);
    expect(await Promise.all(bombs)).toMatchObject([{ code: 'TOO_LARGE' }, { code: 'TOO_LARGE' }]);
  }, 120_000);

  it('runs quick documents in a spare child while every regular child holds a slow one', async () => {
    pool = createExtractionPool({ size: 1, spareSlots: 1, slowAfterMs: 300, timeoutMs: 120_000, maxHeapMb: 512 });
    const controller = new AbortController();
    let slowSettled = false;
    const slow = pool.extract({ bytes: manyPagesPdf(20_000) }, LIMITS, { signal: controller.signal }).finally(() => (slowSettled = true));
    const caught = slow.catch((e: unknown) => e);
    const good = await goodPdfs(10);
    const texts = await Promise.all(good.map((bytes) => pool?.extract({ bytes }, LIMITS).then((d) => d.pages[0]?.lines[0]?.text)));
    expect(texts).toEqual(good.map((_, i) => `Good document number ${i + 1}`));
    // Without the spare child every quick document would have waited behind the slow one.
    expect(slowSettled).toBe(false);
    controller.abort();
    expect(await caught).toMatchObject({ code: 'CANCELLED', retryable: true });
  });

  it('keeps quick documents on the child that has read before, and starts the second child once a job waits long enough', async () => {
    const quickPairs = async (p: PdfExtractor) => {
      const docs = await goodPdfs(5);
      // One alone first: a child has now read a document.
      await p.extract({ bytes: docs[0] as Uint8Array }, LIMITS);
      for (const pair of [docs.slice(1, 3), docs.slice(3, 5)]) {
        const texts = await Promise.all(pair.map((bytes) => p.extract({ bytes }, LIMITS).then((d) => d.pages[0]?.lines[0]?.text)));
        expect(texts).toHaveLength(2);
      }
      return extractionChildren(process.pid).length;
    };
    // Each second document of a pair waits for the busy child (far under the ten minutes).
    pool = createExtractionPool({ size: 2, spareSlots: 0, spreadAfterMs: 600_000, timeoutMs: 120_000, maxHeapMb: 512 });
    expect(await quickPairs(pool)).toBe(1);
    await pool.close();
    // Spreading at once: the second document of the first pair starts the second child.
    pool = createExtractionPool({ size: 2, spareSlots: 0, spreadAfterMs: 0, timeoutMs: 120_000, maxHeapMb: 512 });
    expect(await quickPairs(pool)).toBe(2);
  });

  it('stops a document that uses more than its CPU budget with EXTRACT_TIMEOUT, and the next one still runs', async () => {
    pool = createExtractionPool({ size: 1, spareSlots: 0, timeoutMs: 120_000, maxHeapMb: 512, deadline: { baseMs: 1000, perMibMs: 0, perPageMs: 0 } });
    const err = await pool.extract({ bytes: manyPagesPdf(20_000) }, LIMITS).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'EXTRACT_TIMEOUT', message: expect.stringMatching(/CPU time/) });
    const doc = await pool.extract({ bytes: (await goodPdfs(1))[0] as Uint8Array }, LIMITS);
    expect(doc.pageCount).toBe(1);
  });

  it('keeps a child for the next document, but replaces one a document left holding over half its memory limit', async () => {
    const good = await goodPdfs(2);
    pool = createExtractionPool({ size: 1, spareSlots: 0, timeoutMs: 120_000, maxHeapMb: 512 });
    await pool.extract({ bytes: good[0] as Uint8Array }, LIMITS);
    const warm = extractionChildren(process.pid);
    await pool.extract({ bytes: good[1] as Uint8Array }, LIMITS);
    expect(extractionChildren(process.pid)).toEqual(warm);
    await pool.close();
    // An idle child holds ~95 MB (node, tsx, pdf.js): over half of 150 MB, so every job recycles it
    // (its successor starts at once, so the next document finds pdf.js loaded).
    pool = createExtractionPool({ size: 1, spareSlots: 0, timeoutMs: 120_000, maxHeapMb: 512, maxRssMb: 150 });
    const before = new Set(extractionChildren(process.pid));
    const first = pool.extract({ bytes: good[0] as Uint8Array }, LIMITS);
    await expect.poll(() => extractionChildren(process.pid).filter((pid) => !before.has(pid)).length, { timeout: 15_000, interval: 20 }).toBe(1);
    const used = extractionChildren(process.pid).filter((pid) => !before.has(pid));
    await first;
    await expect.poll(() => used.filter(alive), { timeout: 2000, interval: 20 }).toEqual([]);
    await pool.extract({ bytes: good[1] as Uint8Array }, LIMITS);
  });

  it('replaces a child after maxJobsPerChild documents, and keeps it until then', async () => {
    const good = await goodPdfs(3);
    pool = createExtractionPool({ size: 1, spareSlots: 0, timeoutMs: 120_000, maxHeapMb: 512, maxJobsPerChild: 2 });
    await pool.extract({ bytes: good[0] as Uint8Array }, LIMITS);
    const first = extractionChildren(process.pid);
    expect(first).toHaveLength(1);
    await pool.extract({ bytes: good[1] as Uint8Array }, LIMITS);
    // Its second job was its last: it goes, and its successor takes the third document.
    await expect.poll(() => first.filter(alive), { timeout: 2000, interval: 20 }).toEqual([]);
    expect((await pool.extract({ bytes: good[2] as Uint8Array }, LIMITS)).pageCount).toBe(1);
    const second = extractionChildren(process.pid);
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });

  it('kills a running extraction at once when its signal aborts, rejecting with a retryable CANCELLED', async () => {
    pool = createExtractionPool({ size: 1, timeoutMs: 120_000, maxHeapMb: 512 });
    // Warm the child up so the slow job is surely running (not queued) when the signal aborts.
    await pool.extract({ bytes: (await goodPdfs(1))[0] as Uint8Array }, LIMITS);
    const children = extractionChildren(process.pid);
    expect(children.length).toBeGreaterThan(0);
    const controller = new AbortController();
    const running = pool.extract({ bytes: manyPagesPdf(20_000) }, LIMITS, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
    // CANCELLED, not the 20,000 pages read nor their timeout: the child was killed on the abort.
    expect(await settlesWithin(running, 30_000, 'the aborted extraction')).toMatchObject({ code: 'CANCELLED', retryable: true });
    await expect.poll(() => children.filter(alive), { timeout: 10_000, interval: 20 }).toEqual([]);
  });

  it('refuses an already aborted signal without starting anything', async () => {
    pool = createExtractionPool({ size: 1, timeoutMs: 120_000, maxHeapMb: 512 });
    // What a pool starts, as this process's own children: extraction children and its orphan
    // guard's shell. Not their descendants: a guard shell still reading the previous test's
    // removals forks a subshell for each (same command line), and under load (npm run test:loaded)
    // one of those once appeared meanwhile.
    const poolProcesses = () =>
      directChildren(process.pid).filter((pid) => {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          return cmd.includes('extract-child-entry') || cmd.includes('pids=');
        } catch {
          return false;
        }
      });
    const before = new Set(poolProcesses());
    const err = await pool.extract({ bytes: (await goodPdfs(1))[0] as Uint8Array }, LIMITS, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'CANCELLED', retryable: true });
    expect(poolProcesses().filter((pid) => !before.has(pid))).toEqual([]);
  });

  it('an extraction child whose parent is SIGKILLed mid-document ends too (no orphan)', async () => {
    const pool = new URL('../../shared/pdf/extraction-pool.ts', import.meta.url).href;
    const bombs = new URL('../fixtures/pdf-bombs.ts', import.meta.url).href;
    const script = [
      `const { createExtractionPool } = await import(${JSON.stringify(pool)});`,
      `const { manyPagesPdf } = await import(${JSON.stringify(bombs)});`,
      `const pool = createExtractionPool({ size: 1, timeoutMs: 120000, maxHeapMb: 256 });`,
      `void pool.extract({ bytes: manyPagesPdf(20000) }, { maxBytes: 1e8, maxPages: 30000 });`,
      `setInterval(() => undefined, 1000);`,
    ].join('\n');
    const tsxLoader = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
    const parent = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], { stdio: 'ignore' });
    try {
      const pid = parent.pid as number;
      // The parent has started its extraction child, and the child has had time to get busy.
      await expect.poll(() => extractionChildren(pid).length, { timeout: 15_000, interval: 50 }).toBeGreaterThan(0);
      const child = extractionChildren(pid);
      const all = descendants(pid); // the orphan guard too
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.filter(alive)).toEqual(child);
      parent.kill('SIGKILL');
      await expect.poll(() => all.filter(alive), { timeout: 3000, interval: 50 }).toEqual([]);
      expect(all.length).toBeGreaterThan(child.length);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
