import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWithUnpdf, unpdfInFreshProcess } from '../../bench/unpdf-alone.ts';
import { generateCorpus } from '../fixtures/corpus.ts';

// The yardstick of `bench ingest`'s cpuRatio: unpdf reading a corpus in a process of its own.
describe('unpdf alone in a process started for the corpus', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-unpdf-alone-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every page the in-process reading reads, and reports its own CPU', async () => {
    const { files, docs } = await generateCorpus(dir, { count: 3, seed: 31, pagesPerDoc: [1, 3] });
    const expectedPages = docs.reduce((n, d) => n + d.pageCount, 0);
    const fresh = await unpdfInFreshProcess(files);
    expect(fresh.pages).toBe(expectedPages);
    expect((await readWithUnpdf(files)).pages).toBe(expectedPages);
    expect(fresh.cpuMs).toBeGreaterThan(0);
    expect(fresh.ms).toBeGreaterThan(0);
  });

  it('reads the warm-up files first without counting them', async () => {
    const corpus = await generateCorpus(path.join(dir, 'corpus'), { count: 2, seed: 32, pagesPerDoc: [1, 2] });
    const warmup = await generateCorpus(path.join(dir, 'warmup'), { count: 2, seed: 33, pagesPerDoc: [3, 3] });
    const warmed = await unpdfInFreshProcess(corpus.files, warmup.files);
    expect(warmed.pages).toBe(corpus.docs.reduce((n, d) => n + d.pageCount, 0));
    // A warm-up file it cannot read fails the run as a corpus file does.
    await expect(unpdfInFreshProcess(corpus.files, [path.join(dir, 'missing.pdf')])).rejects.toThrow(/without an answer: .*ENOENT/s);
  });

  it('fails with the reason when the process cannot read a file', async () => {
    await expect(unpdfInFreshProcess([path.join(dir, 'missing.pdf')])).rejects.toThrow(/without an answer: .*ENOENT/s);
  });
});
