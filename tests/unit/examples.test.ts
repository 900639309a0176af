import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDocsDir, defaultSourcesDir, generateExamples, type GeneratedDoc } from '../../examples/generate.ts';
import { wrapText } from '../../examples/pdf-layout.ts';
import { DocumentMeta } from '../../shared/domain/document.ts';

const DOCS = defaultDocsDir();
const SOURCES = defaultSourcesDir();
const REPO_ROOT = join(DOCS, '..', '..');

async function pdfText(file: string): Promise<{ pages: number; text: string }> {
  const pdf = await getDocumentProxy(new Uint8Array(await readFile(file)));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  return { pages: totalPages, text };
}

const stems = async (dir: string, suffix: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => f.endsWith(suffix)).map((f) => f.slice(0, -suffix.length)).sort();

describe('example generator', () => {
  let first: string;
  let second: string;
  let all: string;
  let generated: GeneratedDoc[];

  beforeAll(async () => {
    first = await mkdtemp(join(tmpdir(), 'quarry-examples-a-'));
    second = await mkdtemp(join(tmpdir(), 'quarry-examples-b-'));
    all = await mkdtemp(join(tmpdir(), 'quarry-examples-all-'));
    generated = await generateExamples({ outDir: all });
  });
  afterAll(async () => {
    await Promise.all([first, second, all].map((d) => rm(d, { recursive: true, force: true })));
  });

  it('is deterministic: two runs give identical bytes', async () => {
    const only = ['ko-birth-incentive-guideline', 'parental-leave-policy-2023'];
    await generateExamples({ outDir: first, only });
    await generateExamples({ outDir: second, only });
    for (const name of only) {
      const a = await readFile(join(first, `${name}.pdf`));
      const b = await readFile(join(second, `${name}.pdf`));
      expect(a.byteLength).toBeGreaterThan(1000);
      expect(Buffer.compare(a, b), name).toBe(0);
    }
  });

  it('committed PDFs and sidecars equal what the generator produces now (run `npm run examples:generate`)', async () => {
    expect(await stems(DOCS, '.pdf')).toEqual(generated.map((d) => d.name));
    for (const doc of generated) {
      for (const suffix of ['.pdf', '.meta.json']) {
        const committed = await readFile(join(DOCS, `${doc.name}${suffix}`));
        const fresh = await readFile(join(all, `${doc.name}${suffix}`));
        expect(Buffer.compare(committed, fresh), `${doc.name}${suffix} drifted from its source`).toBe(0);
      }
    }
  });

  it('every source has a PDF, every PDF a sidecar, and nothing else is in docs/', async () => {
    const sources = await stems(SOURCES, '.md');
    expect(sources.length).toBeGreaterThanOrEqual(8);
    expect(sources.length).toBeLessThanOrEqual(12);
    expect(await stems(DOCS, '.pdf')).toEqual(sources);
    expect(await stems(DOCS, '.meta.json')).toEqual(sources);
    expect((await readdir(DOCS)).length).toBe(2 * sources.length);
  });

  it('every sidecar parses with the DocumentMeta schema', async () => {
    for (const name of await stems(DOCS, '.meta.json')) {
      const raw: unknown = JSON.parse(await readFile(join(DOCS, `${name}.meta.json`), 'utf8'));
      const parsed = DocumentMeta.safeParse(raw);
      expect(parsed.success, `${name}: ${parsed.error?.message ?? ''}`).toBe(true);
      expect(parsed.data?.title).toBeTruthy();
    }
  });

  it('PDFs are small, 2-6 pages, and carry Title, CreationDate and language', async () => {
    for (const doc of generated) {
      const bytes = await readFile(join(DOCS, `${doc.name}.pdf`));
      expect(bytes.byteLength, doc.name).toBeLessThan(60 * 1024);
      const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
      expect(pdf.getPageCount(), doc.name).toBeGreaterThanOrEqual(2);
      expect(pdf.getPageCount(), doc.name).toBeLessThanOrEqual(6);
      expect(pdf.getTitle()).toBe(doc.meta.title);
      expect(pdf.getCreationDate()?.getUTCFullYear()).toBeGreaterThanOrEqual(2022);
    }
  });

  it('jobs manifests point at committed PDFs and agree with their sidecars', async () => {
    const manifests = await readdir(join(DOCS, '..', 'jobs'));
    expect(manifests).toEqual(expect.arrayContaining(['all.jsonl', 'korean.jsonl']));
    for (const manifest of manifests) {
      const lines = (await readFile(join(DOCS, '..', 'jobs', manifest), 'utf8')).split('\n').filter((l) => l.trim());
      expect(lines.length, manifest).toBeGreaterThan(0);
      for (const line of lines) {
        const { path, ...meta } = JSON.parse(line) as { path: string } & Record<string, unknown>;
        expect(path).toMatch(/^examples\/docs\/[a-z0-9-]+\.pdf$/);
        await expect(readFile(join(REPO_ROOT, path))).resolves.toBeDefined();
        expect(DocumentMeta.safeParse(meta).success, line).toBe(true);
        const { title: _title, ...sidecar } = JSON.parse(await readFile(join(REPO_ROOT, path.replace(/\.pdf$/, '.meta.json')), 'utf8')) as Record<string, unknown>;
        expect(meta, path).toEqual(sidecar);
      }
    }
    const all = (await readFile(join(DOCS, '..', 'jobs', 'all.jsonl'), 'utf8')).trim().split('\n');
    expect(all.length).toBe((await stems(DOCS, '.pdf')).length);
  });
});

describe('example corpus content (what the acceptance tests rely on)', () => {
  it('parental leave: two versions, same title, 12 vs 16 weeks, adjacent validity', async () => {
    const v2023 = await pdfText(join(DOCS, 'parental-leave-policy-2023.pdf'));
    const v2025 = await pdfText(join(DOCS, 'parental-leave-policy-2025.pdf'));
    expect(v2023.text).toContain('twelve (12) weeks of paid parental leave');
    expect(v2025.text).toContain('sixteen (16) weeks of paid parental leave');
    const m2023 = JSON.parse(await readFile(join(DOCS, 'parental-leave-policy-2023.meta.json'), 'utf8')) as DocumentMeta;
    const m2025 = JSON.parse(await readFile(join(DOCS, 'parental-leave-policy-2025.meta.json'), 'utf8')) as DocumentMeta;
    expect(m2023.title).toBe(m2025.title);
    expect(m2023.valid_to).toBe(m2025.valid_from);
    expect(m2025.valid_to).toBeNull();
  });

  it('data retention: the effective date is only in the text', async () => {
    const { text } = await pdfText(join(DOCS, 'data-retention-policy.pdf'));
    expect(text).toContain('Effective date: March 1, 2024');
    const meta = JSON.parse(await readFile(join(DOCS, 'data-retention-policy.meta.json'), 'utf8')) as DocumentMeta;
    expect(meta.valid_from).toBeUndefined();
  });

  it('numbered headings: handbook 1. / 1.1, spec 4.1.2.', async () => {
    const handbook = (await pdfText(join(DOCS, 'remote-work-handbook.pdf'))).text;
    for (const heading of ['1. Introduction', '1.1 Purpose', '1.2 Scope', '2. Eligibility for Remote Work', '4.2 Home office stipend']) {
      expect(handbook).toMatch(new RegExp(`^${heading.replace(/\./g, '\\.')}$`, 'm'));
    }
    const spec = (await pdfText(join(DOCS, 'records-exchange-protocol.pdf'))).text;
    expect(spec).toMatch(/^4\.1\.2\. Retention Labels$/m);
  });

  it('Korean law: [시행 …], 제1장, 제1조(목적), 제2조(정의), clauses ①②③ and 부칙', async () => {
    const { text } = await pdfText(join(DOCS, 'ko-childbirth-support-act.pdf'));
    expect(text).toContain('[시행 2025. 3. 1.]');
    for (const marker of ['제1장 총칙', '제1조(목적)', '제2조(정의)', '①', '②', '③', '부칙']) expect(text).toContain(marker);
    expect(text).toMatch(/^제2조\(정의\)/m);
  });

  it('birth incentive: the term is written both spaced and unspaced, with eligibility/amount/application sections', async () => {
    const { text } = await pdfText(join(DOCS, 'ko-birth-incentive-guideline.pdf'));
    expect(text.split('출산 장려금').length - 1).toBeGreaterThanOrEqual(3);
    expect(text.split('출산장려금').length - 1).toBeGreaterThanOrEqual(3);
    for (const section of ['3. 지원 대상', '4. 지원 금액', '5. 신청 방법']) expect(text).toContain(section);
  });

  it('running header and footer on every page', async () => {
    for (const name of ['benefits-faq', 'ko-childbirth-support-faq']) {
      const pdf = await getDocumentProxy(new Uint8Array(await readFile(join(DOCS, `${name}.pdf`))));
      const { text } = await extractText(pdf, { mergePages: false });
      const meta = JSON.parse(await readFile(join(DOCS, `${name}.meta.json`), 'utf8')) as DocumentMeta;
      text.forEach((page, i) => {
        expect(page.startsWith(meta.title ?? '')).toBe(true);
        expect(page.trimEnd().endsWith(meta.lang === 'ko' ? `${i + 1}쪽` : `Page ${i + 1}`)).toBe(true);
      });
    }
  });
});

describe('wrapText', () => {
  const mono = (s: string): number => Array.from(s).length;

  it('breaks at spaces, keeping Korean words whole', () => {
    expect(wrapText('출산 장려금 지급 대상 및 출산장려금 신청', 10, mono)).toEqual(['출산 장려금 지급', '대상 및 출산장려금', '신청']);
  });

  it('breaks a word longer than the line between characters', () => {
    expect(wrapText('abcdefghij kl', 4, mono)).toEqual(['abcd', 'efgh', 'ij', 'kl']);
  });
});
