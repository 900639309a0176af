/**
 * unpdf alone, the yardstick of `bench ingest`'s `cpuRatio`: open every file and read every page's
 * text content, nothing else, in a Node process started for the corpus — as Quarry's extraction
 * children are. Read in the bench's own process instead, its figure hung on what that process had
 * read before: pdf.js cold on the first corpus (the book) and optimised on the next.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { getDocumentProxy } from 'unpdf';
import { answerIfForked, runInFreshProcess } from './fresh-process.ts';

/** What reading the files cost: pages read, wall ms, CPU ms of the process (every thread). */
export interface UnpdfRun {
  pages: number;
  ms: number;
  cpuMs: number;
}

/** Reads `files` with unpdf in this process. */
export async function readWithUnpdf(files: readonly string[]): Promise<UnpdfRun> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let pages = 0;
  for (const file of files) {
    const pdf = await getDocumentProxy(new Uint8Array(await readFile(file)), { isEvalSupported: false });
    for (let i = 1; i <= pdf.numPages; i++) await (await pdf.getPage(i)).getTextContent();
    pages += pdf.numPages;
    await pdf.destroy();
  }
  const cpu = process.cpuUsage(cpu0);
  return { pages, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const SELF = fileURLToPath(import.meta.url);

type UnpdfRequest = { files: string[]; warmup: string[] };

/**
 * {@link readWithUnpdf} in a new Node process; with `warmup`, those files are read first and not
 * counted, so the figure is pdf.js's once its code is optimised, as in a reader that has run for a while.
 * @throws Error when it ends without its figures.
 */
export function unpdfInFreshProcess(files: readonly string[], warmup: readonly string[] = []): Promise<UnpdfRun> {
  return runInFreshProcess<UnpdfRun>(SELF, { files: [...files], warmup: [...warmup] } satisfies UnpdfRequest);
}

answerIfForked<UnpdfRequest, UnpdfRun>(SELF, async ({ files, warmup }) => {
  if (warmup.length > 0) await readWithUnpdf(warmup);
  return readWithUnpdf(files);
});
