import { readdirSync } from 'node:fs';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../apps/cli/service.ts';
import { ChunksArtifact, ExtractedDocument, MIN_COVERAGE, docIdForSource } from '../../shared/domain/index.ts';
import { flattenLines } from '../../shared/sectionize/flat-lines.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';
import { queueTotals, settle, startPipeline, testWorkspace } from '../helpers/pipeline.ts';
import { REDIS_AVAILABLE, startTestRedis } from '../helpers/redis.ts';
import { decodePassword, sharedPath } from '../helpers/shared-data.ts';
import { HAVE_PDFTOTEXT, pdftotextPages, squashText } from '../helpers/pdftotext.ts';

const robustness = sharedPath('pdfs', 'robustness');
const legal = sharedPath('pdfs', 'legal');
// The filings of the evaluation set: long statements, notes and tables (page truth is checked on them too).
const filings = sharedPath('eval', 'docugami-sec10q', 'docs');
const FILINGS = filings.present ? readdirSync(filings.path).filter((f) => f.endsWith('.pdf')).sort() : [];
/** Documents whose pages are also checked against poppler's pdftotext (issue 28): the filings, the book, RFC 8446. */
const POPPLER_CHECKED = new Set([...FILINGS, 'freeculture.pdf', 'rfc8446_tls1.3.pdf']);
const SPECIFIC_CODES = ['PASSWORD_REQUIRED', 'NO_TEXT_LAYER', 'CORRUPT_PDF', 'UNSUPPORTED_FEATURE', 'TOO_LARGE', 'EXTRACT_TIMEOUT'];

interface ManifestFile {
  file: string;
  category: string;
  password?: string;
}

describe.skipIf(!REDIS_AVAILABLE || !robustness.present || !legal.present)('real-world PDFs through the whole pipeline', () => {
  let redis: Awaited<ReturnType<typeof startTestRedis>>;
  let ws: ReturnType<typeof testWorkspace>;
  let service: Service;
  let manifest: ManifestFile[];
  let statuses: Map<string, DocStatus>;

  beforeAll(async () => {
    redis = await startTestRedis();
    ws = testWorkspace(redis.url, { EXTRACT_TIMEOUT_MS: '60000' });
    manifest = (JSON.parse(await readFile(path.join(robustness.path, 'MANIFEST.json'), 'utf8')) as { files: ManifestFile[] }).files;
    for (const f of manifest) {
      await copyFile(path.join(robustness.path, f.file), path.join(ws.config.watchDir, f.file));
      // Encrypted files get their password in the sidecar, as a person would give it.
      if (f.password !== undefined) {
        await writeFile(path.join(ws.config.watchDir, f.file.replace(/\.pdf$/, '.meta.json')), JSON.stringify({ password: decodePassword(f.password) }));
      }
    }
    await copyFile(path.join(legal.path, 'kr_labor_standards_act_2025.pdf'), path.join(ws.config.watchDir, 'kr_labor_standards_act_2025.pdf'));
    await writeFile(path.join(ws.config.watchDir, 'kr_labor_standards_act_2025.meta.json'), JSON.stringify({ doc_type: 'law', jurisdiction: 'KR' }));
    await copyFile(path.join(legal.path, 'rfc8446_tls1.3.pdf'), path.join(ws.config.watchDir, 'rfc8446_tls1.3.pdf'));
    await copyFile(path.join(legal.path, 'NIST.SP.800-63b.pdf'), path.join(ws.config.watchDir, 'NIST.SP.800-63b.pdf'));
    for (const f of FILINGS) await copyFile(path.join(filings.path, f), path.join(ws.config.watchDir, f));
    service = await startPipeline(ws.config);
    const settled = await settle(service, { count: manifest.length + 3 + FILINGS.length, timeoutMs: 600_000 });
    statuses = new Map(settled.map((s) => [s.sourceKey.replace(/^dir:/, ''), s]));
  }, 620_000);

  afterAll(async () => {
    await service?.stop();
    await redis?.cleanup();
    ws?.cleanup();
  });

  it('every file ends indexed or failed with a specific code, and nothing is left in the queues', async () => {
    const unsettled = [...statuses.values()].filter((s) => s.state !== 'indexed' && !(s.state === 'failed' && SPECIFIC_CODES.includes(s.errorCode ?? '')));
    expect(unsettled.map((s) => `${s.sourceKey}: ${s.state} ${s.errorCode} ${s.errorMessage}`)).toEqual([]);
    const totals = await queueTotals(service);
    expect(totals.open).toBe(0);
    expect(service.workers?.isRunning()).toBe(true);
  });

  it('encrypted files open with the password from their metadata; the unreadable fail with the right code', () => {
    // issue3371.pdf is a scanned page behind a password: the password opens it, then it has no text.
    const expected: Record<string, string> = {
      'issue6010_1.pdf': 'indexed',
      'print_protection.pdf': 'indexed',
      'saslprep-r6.pdf': 'indexed',
      'bug900822.pdf': 'indexed',
      'issue3371.pdf': 'NO_TEXT_LAYER',
      'issue7229.pdf': 'NO_TEXT_LAYER',
      'scan-bad.pdf': 'NO_TEXT_LAYER',
      'empty.pdf': 'NO_TEXT_LAYER',
      'empty_protected.pdf': 'NO_TEXT_LAYER',
      'REDHAT-1531897-0.pdf': 'CORRUPT_PDF',
      'helloworld-bad.pdf': 'indexed',
      'xref_command_missing.pdf': 'indexed',
      'tracemonkey.pdf': 'indexed',
      'freeculture.pdf': 'indexed',
    };
    const actual = Object.fromEntries(Object.keys(expected).map((f) => {
      const s = statuses.get(f)!;
      return [f, s.state === 'indexed' ? 'indexed' : (s.errorCode ?? s.state)];
    }));
    expect(actual).toEqual(expected);
    for (const s of statuses.values()) if (s.state === 'failed') expect(s.errorMessage?.length).toBeGreaterThan(10);
  });

  it('the Korean Labor Standards Act is indexed per article, valid from 2025-02-23', async () => {
    const s = statuses.get('kr_labor_standards_act_2025.pdf')!;
    expect(s.state).toBe('indexed');
    const docId = docIdForSource('dir:kr_labor_standards_act_2025.pdf');
    const { document, chunks } = await service.ports.artifacts.getJson(docId, s.version, 'enriched.json');
    expect(document.valid_from).toBe('2025-02-23');
    expect(document.lang).toBe('ko');
    expect(chunks.every((c) => c.valid_from === '2025-02-23')).toBe(true);
    const paths = chunks.map((c) => c.section_path).join('\n');
    expect(paths).toMatch(/제1장 총칙/);
    expect(paths).toMatch(/제2장 근로계약/);
    expect(chunks.some((c) => c.body.includes('국가법령정보센터'))).toBe(false);
  });

  it('RFC 8446 is indexed with its numbered sections', async () => {
    const s = statuses.get('rfc8446_tls1.3.pdf')!;
    expect(s.state).toBe('indexed');
    const { chunks } = await service.ports.artifacts.getJson(s.docId, s.version, 'enriched.json');
    expect(chunks.some((c) => /^4\.\s.*> 4\.1\.\s.*> 4\.1\.2\./.test(c.section_path))).toBe(true);
  });

  /** The indexed documents with their extracted lines and chunk artifacts (read once). */
  let read: Promise<{ file: string; status: DocStatus; extracted: ExtractedDocument; chunks: ChunksArtifact }[]> | null = null;
  const indexed = () => (read ??= readIndexed());
  async function readIndexed(): Promise<{ file: string; status: DocStatus; extracted: ExtractedDocument; chunks: ChunksArtifact }[]> {
    const out = [];
    for (const [file, status] of statuses) {
      if (status.state !== 'indexed') continue;
      const [extracted, chunks] = await Promise.all([
        service.ports.artifacts.getJson(status.docId, status.version, 'extracted.json'),
        service.ports.artifacts.getJson(status.docId, status.version, 'chunks.json'),
      ]);
      out.push({ file, status, extracted, chunks });
    }
    return out;
  }

  it('coverage: every document that indexes holds at least 99.5% of its printed body text in chunks, and says so on its status', async () => {
    const docs = await indexed();
    expect(docs.length).toBeGreaterThan(30);
    const low = docs.filter((d) => (d.status.coverage?.ratio ?? 0) < MIN_COVERAGE).map((d) => `${d.file}: ${d.status.coverage?.ratio} unindexed ${JSON.stringify(d.status.coverage?.unindexed.slice(0, 5))}`);
    expect(low).toEqual([]);
    for (const d of docs) {
      expect(d.status.coverage, d.file).toEqual(d.chunks.coverage);
      expect(d.status.warnings?.some((w) => w.code === 'TEXT_NOT_INDEXED') ?? false, d.file).toBe(false);
    }
  }, 120_000);

  it("page truth: every chunk's pages are those of its first and last printed lines, whose text its body holds", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const d of await indexed()) {
      const lines = flattenLines(d.extracted);
      const pageOfLine = (i: number) => lines[i]?.page;
      d.chunks.chunks.forEach((c, k) => {
        const spans = d.chunks.spans?.[k] ?? [];
        if (spans.length === 0) return;
        checked++;
        for (const [start, end, page, line] of spans) {
          // A span holds its line, the part of it in this chunk (a chunk may end mid-line, at a
          // sentence), or — for a heading printed over several lines — the title they make.
          const held = c.body.slice(start, end);
          const text = lines[line]?.text.trim() ?? '';
          // A table chunk sets its lines as Markdown rows: a span holds the row (or header) its
          // line's words and figures were printed in; a header line's label-column caption is
          // set above the header, so those words may come before the span.
          const holds = c.table ? text.split(/\s+/).every((w) => c.body.slice(0, end).includes(w)) : text.includes(held) || held.includes(text);
          if (pageOfLine(line) !== page || held === '' || !holds) wrong.push(`${d.file} #${k}: span of line ${line} does not hold it`);
        }
        const first = spans[0]!;
        const last = spans[spans.length - 1]!;
        if (c.page_start !== Math.min(first[2], ...spans.map((sp) => sp[2])) || c.page_end !== Math.max(last[2], ...spans.map((sp) => sp[2]))) {
          wrong.push(`${d.file} #${k}: pages ${c.page_start}-${c.page_end}, its lines are on ${first[2]}-${last[2]}`);
        }
      });
    }
    expect(checked).toBeGreaterThan(1000);
    expect(wrong.slice(0, 20)).toEqual([]);
  }, 120_000);

  it.skipIf(!HAVE_PDFTOTEXT)("page truth against poppler's pdftotext: each chunk's first and last line are on its first and last page (≥ 99% of chunk ends)", async () => {
    let checked = 0;
    let unfound = 0;
    const wrong: string[] = [];
    for (const d of (await indexed()).filter((x) => POPPLER_CHECKED.has(x.file))) {
      const source = FILINGS.includes(d.file) ? path.join(filings.path, d.file) : path.join(d.file === 'freeculture.pdf' ? robustness.path : legal.path, d.file);
      const pages = pdftotextPages(source);
      const lines = flattenLines(d.extracted);
      d.chunks.chunks.forEach((c, k) => {
        const spans = d.chunks.spans?.[k] ?? [];
        if (spans.length === 0) return;
        for (const [line, page] of [[spans[0]![3], c.page_start], [spans[spans.length - 1]![3], c.page_end]] as const) {
          const text = squashText(lines[line]?.text ?? '');
          // Too short to place (a figure, a page number), or set apart differently by the two extractors.
          if (text.length < 6) continue;
          const on = pages.flatMap((p, i) => (p.includes(text) ? [i + 1] : []));
          if (on.length === 0) {
            unfound++;
            continue;
          }
          checked++;
          if (!on.includes(page)) wrong.push(`${d.file} chunk ${k}: line on p. ${on.join(',')}, chunk says p. ${page}`);
        }
      });
    }
    // The two extractors agree on most lines; those poppler reads differently cannot be placed.
    expect(checked).toBeGreaterThan(2000);
    expect(unfound / (checked + unfound)).toBeLessThan(0.1);
    expect(wrong.length / checked, wrong.slice(0, 10).join('\n')).toBeLessThanOrEqual(0.01);
  }, 600_000);
});
