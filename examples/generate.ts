/**
 * Regenerates the example corpus: `examples/sources/<name>.md` → `examples/docs/<name>.pdf` and
 * `examples/docs/<name>.meta.json`. Output is deterministic, so an unchanged source leaves its
 * committed PDF byte-for-byte unchanged.
 *
 * Run: `npm run examples:generate` or `npx tsx examples/generate.ts`.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DocumentMeta } from '../shared/domain/document.ts';
import { parseExampleSource, type ExampleMeta } from './markdown-source.ts';
import { renderPdf } from './pdf-writer.ts';

const EXAMPLES_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Where to read sources and write documents. */
export interface GenerateOptions {
  /** @defaultValue `examples/sources` */
  sourcesDir?: string;
  /** @defaultValue `examples/docs` */
  outDir?: string;
  /** Generate only these document names (no stale-file cleanup then). */
  only?: string[];
}

/** One generated document. */
export interface GeneratedDoc {
  name: string;
  pdfPath: string;
  metaPath: string;
  pageCount: number;
  bytes: number;
  meta: ExampleMeta;
}

/** The committed source directory. */
export const defaultSourcesDir = (): string => join(EXAMPLES_DIR, 'sources');
/** The committed output directory. */
export const defaultDocsDir = (): string => join(EXAMPLES_DIR, 'docs');

/** Sidecar JSON text: fixed key order, two-space indent, trailing newline. */
export function sidecarJson(meta: ExampleMeta): string {
  return `${JSON.stringify(meta, null, 2)}\n`;
}

/** Renders one source file to PDF bytes and its sidecar text, without writing anything. */
export async function renderExample(sourcePath: string): Promise<{ meta: ExampleMeta; pdf: Uint8Array; pageCount: number }> {
  const name = basename(sourcePath, '.md');
  const source = parseExampleSource(await readFile(sourcePath, 'utf8'), name);
  DocumentMeta.parse(source.meta);
  const { bytes, pageCount } = await renderPdf({
    title: source.meta.title,
    lang: source.meta.lang,
    pageSize: source.pageSize,
    blocks: source.blocks,
    ...(source.author ? { author: source.author } : {}),
    ...(source.creationDate ? { creationDate: source.creationDate } : {}),
  });
  return { meta: source.meta, pdf: bytes, pageCount };
}

/**
 * Generates every example document. Documents are rendered one after another so their bytes
 * never depend on scheduling. Stale outputs (no source any more) are removed.
 *
 * @throws Error when a source is malformed or its metadata fails the DocumentMeta schema.
 */
export async function generateExamples(options: GenerateOptions = {}): Promise<GeneratedDoc[]> {
  const sourcesDir = options.sourcesDir ?? defaultSourcesDir();
  const outDir = options.outDir ?? defaultDocsDir();
  const names = (await readdir(sourcesDir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => basename(f, '.md'))
    .filter((n) => !options.only || options.only.includes(n))
    .sort();
  await mkdir(outDir, { recursive: true });

  const docs: GeneratedDoc[] = [];
  for (const name of names) {
    const { meta, pdf, pageCount } = await renderExample(join(sourcesDir, `${name}.md`));
    const pdfPath = join(outDir, `${name}.pdf`);
    const metaPath = join(outDir, `${name}.meta.json`);
    await writeFile(pdfPath, pdf);
    await writeFile(metaPath, sidecarJson(meta));
    docs.push({ name, pdfPath, metaPath, pageCount, bytes: pdf.byteLength, meta });
  }

  if (!options.only) {
    const keep = new Set(names.flatMap((n) => [`${n}.pdf`, `${n}.meta.json`]));
    for (const file of await readdir(outDir)) {
      if ((file.endsWith('.pdf') || file.endsWith('.meta.json')) && !keep.has(file)) await rm(join(outDir, file));
    }
  }
  return docs;
}

async function main(): Promise<void> {
  const started = performance.now();
  const docs = await generateExamples();
  for (const d of docs) {
    console.log(`${d.name.padEnd(36)} ${String(d.pageCount).padStart(2)} pages ${(d.bytes / 1024).toFixed(1).padStart(7)} KB`);
  }
  console.log(`${docs.length} documents in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
