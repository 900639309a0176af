import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentMeta } from '../../shared/domain/document.ts';
import { CORPUS_EN_PHRASE, CORPUS_KO_PHRASE, generateCorpus, mutatePdf, type CorpusDoc } from '../fixtures/corpus.ts';

async function pages(file: string): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(await readFile(file)));
  return (await extractText(pdf, { mergePages: false })).text;
}

/** Body text per mutable section, with the running header and footer removed. */
function sectionTexts(pageTexts: string[], doc: CorpusDoc): Map<string, string> {
  const title = doc.meta.title ?? '';
  const lines = pageTexts
    .flatMap((p) => p.split('\n'))
    .filter((l) => l !== title && !/^(Page \d+|\d+쪽)$/.test(l));
  const out = new Map<string, string>();
  doc.sections.forEach((heading, i) => {
    const start = lines.indexOf(heading);
    const next = doc.sections[i + 1];
    const end = next ? lines.indexOf(next) : lines.length;
    expect(start, heading).toBeGreaterThanOrEqual(0);
    out.set(heading, lines.slice(start, end).join(' ').replace(/\s+/g, ' '));
  });
  return out;
}

describe('generateCorpus', () => {
  let dir: string;
  let again: string;
  let docs: CorpusDoc[];
  let files: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-corpus-'));
    again = await mkdtemp(join(tmpdir(), 'quarry-corpus-again-'));
    ({ docs, files } = await generateCorpus(dir, { count: 8, seed: 11, pagesPerDoc: [2, 3], lang: 'mixed' }));
  });
  afterAll(async () => {
    await Promise.all([dir, again].map((d) => rm(d, { recursive: true, force: true })));
  });

  it('writes N distinct PDFs in the page range, with valid sidecars', async () => {
    expect(files).toHaveLength(8);
    expect(new Set(docs.map((d) => d.meta.title)).size).toBe(8);
    expect(docs.some((d) => d.lang === 'ko')).toBe(true);
    expect(docs.some((d) => d.lang === 'en')).toBe(true);
    for (const doc of docs) {
      const pdf = await getDocumentProxy(new Uint8Array(await readFile(doc.file)));
      expect(pdf.numPages, doc.file).toBe(doc.pageCount);
      expect(pdf.numPages).toBeGreaterThanOrEqual(2);
      expect(pdf.numPages).toBeLessThanOrEqual(3);
      const meta = DocumentMeta.parse(JSON.parse(await readFile(doc.metaFile, 'utf8')));
      expect(meta.lang).toBe(doc.lang);
    }
  });

  it('Korean text round-trips through extraction, with 제N조 headings', async () => {
    const korean = docs.find((d) => d.lang === 'ko');
    if (!korean) throw new Error('seed 11 should give a Korean document');
    const text = (await pages(korean.file)).join('\n');
    expect(text).toContain(CORPUS_KO_PHRASE);
    expect(text).toMatch(/^제1조\(목적\)$/m);
    expect(text).toMatch(/^제2조\(정의\)$/m);
    const english = docs.find((d) => d.lang === 'en');
    expect((await pages(english?.file ?? '')).join('\n')).toContain(CORPUS_EN_PHRASE);
  });

  it('is deterministic for the same options', async () => {
    const { files: second } = await generateCorpus(again, { count: 3, seed: 11, pagesPerDoc: [2, 3], lang: 'mixed' });
    for (let i = 0; i < 3; i++) {
      expect(Buffer.compare(await readFile(files[i] ?? ''), await readFile(second[i] ?? ''))).toBe(0);
    }
  });

  it('lang ko gives only Korean documents', async () => {
    const { docs: korean } = await generateCorpus(join(again, 'ko'), { count: 2, seed: 5, pagesPerDoc: [2, 2], lang: 'ko' });
    expect(korean.every((d) => d.lang === 'ko' && d.pageCount === 2)).toBe(true);
  });
});

describe('mutatePdf', () => {
  let dir: string;
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it.each(['en', 'ko'] as const)('changes the body of exactly one section (%s)', async (lang) => {
    dir ??= await mkdtemp(join(tmpdir(), 'quarry-mutate-'));
    const { docs } = await generateCorpus(join(dir, lang), { count: 1, seed: 23, pagesPerDoc: [2, 3], lang });
    const doc = docs[0];
    if (!doc) throw new Error('no document');
    const beforeBytes = await readFile(doc.file);
    const before = sectionTexts(await pages(doc.file), doc);
    const metaBefore = await readFile(doc.metaFile, 'utf8');

    const mutation = await mutatePdf(doc.file);
    expect(mutation.revision).toBe(1);
    expect(doc.sections).toContain(mutation.section);
    expect(Buffer.compare(beforeBytes, await readFile(doc.file))).not.toBe(0);
    expect(await readFile(doc.metaFile, 'utf8')).toBe(metaBefore);

    const after = sectionTexts(await pages(doc.file), doc);
    for (const heading of doc.sections) {
      if (heading === mutation.section) {
        expect(after.get(heading)).not.toBe(before.get(heading));
        expect(after.get(heading)).toContain(mutation.marker);
      } else {
        expect(after.get(heading), heading).toBe(before.get(heading));
      }
    }
    expect((await mutatePdf(doc.file)).revision).toBe(2);
  });
});
