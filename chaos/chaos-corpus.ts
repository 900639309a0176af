/**
 * The chaos corpus: the generated test corpus (distinct multi-page EN/KO documents, so every
 * chunk id differs) plus a few PDFs that must fail permanently and identically in every run.
 */
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DIR_KEY_PREFIX } from '../core/sources/source-keys.ts';
import { docIdForSource } from '../shared/domain/index.ts';
import { generateCorpus } from '../tests/fixtures/corpus.ts';
import { buildPdf } from '../tests/fixtures/pdf-builders.ts';

/**
 * Bad PDFs, cycling through kinds whose failure does not depend on timing: a scan with no text
 * layer (NO_TEXT_LAYER) and bytes that only start like a PDF (CORRUPT_PDF).
 */
async function badPdf(index: number): Promise<Uint8Array> {
  if (index % 2 === 0) return buildPdf({ title: `chaos scan ${index}`, pages: [{ runs: [], image: true }, { runs: [], image: true }] });
  // Distinct bytes per file, so two bad files are two documents, not one re-drop.
  return new TextEncoder().encode(`%PDF-1.7\n% chaos corrupt ${index}\n${'garbage '.repeat(64)}\n%%EOF\n`);
}

/**
 * Writes `docs` good documents (with sidecars) and `bad` bad ones into `dir`.
 * @returns the file names of the bad PDFs.
 */
export async function writeChaosCorpus(dir: string, opts: { docs: number; bad: number; seed: number }): Promise<{ bad: string[] }> {
  await generateCorpus(dir, { count: opts.docs, seed: opts.seed, pagesPerDoc: [1, 3] });
  const bad: string[] = [];
  for (let i = 0; i < opts.bad; i++) {
    const name = `bad-${String(i).padStart(3, '0')}.pdf`;
    await writeFile(path.join(dir, name), await badPdf(i));
    bad.push(name);
  }
  return { bad };
}

/** The document id the watcher gives a PDF directly inside the watched folder. */
export function corpusDocId(fileName: string): string {
  return docIdForSource(DIR_KEY_PREFIX + fileName);
}

/** The document ids the watcher gives the PDFs directly inside `dir`, sorted. */
export function corpusDocIds(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.toLowerCase().endsWith('.pdf'))
    .map(corpusDocId)
    .sort();
}
