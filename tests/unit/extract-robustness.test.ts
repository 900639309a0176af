/**
 * Every PDF of ../shared/pdfs/robustness through the isolated extractor: each one either yields
 * text or fails with a specific permanent code. Expectations come from MANIFEST.json categories;
 * where pdf.js does better (or differently) than the category suggests, the real behaviour is
 * pinned below with the reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { PermanentError } from '../../shared/errors.ts';
import { extractIsolated } from '../../shared/pdf/isolated-extract.ts';
import { decodePassword, sharedPath } from '../helpers/shared-data.ts';

interface ManifestFile {
  file: string;
  category: string;
  pages: number | null;
  password?: string;
}

type Outcome = 'text' | 'PASSWORD_REQUIRED' | 'NO_TEXT_LAYER' | 'CORRUPT_PDF' | 'TOO_LARGE' | 'UNSUPPORTED_FEATURE' | 'EXTRACT_TIMEOUT';
const ALLOWED: readonly Outcome[] = ['text', 'PASSWORD_REQUIRED', 'NO_TEXT_LAYER', 'CORRUPT_PDF', 'TOO_LARGE', 'UNSUPPORTED_FEATURE', 'EXTRACT_TIMEOUT'];

const BY_CATEGORY: Record<string, Outcome> = {
  scanned: 'NO_TEXT_LAYER',
  empty: 'NO_TEXT_LAYER',
  'encrypted-user-password': 'PASSWORD_REQUIRED',
  corrupted: 'CORRUPT_PDF',
};

/** Where pdf.js's real behaviour differs from the category, pinned with the reason. */
const PINNED: Record<string, { outcome: Outcome; why: string }> = {
  'bug1978317.pdf': { outcome: 'text', why: 'pdf.js rebuilds the missing trailer by scanning objects (about 16k characters on 1 page)' },
  'poppler-67295-0.pdf': { outcome: 'text', why: 'pdf.js ignores the bogus page count -2147483648 and reads "TestString123"' },
  'empty_protected.pdf': { outcome: 'NO_TEXT_LAYER', why: 'owner-only encryption opens without a password; the single page is blank' },
  'bug1795263.pdf': { outcome: 'text', why: 'the price table is an image, but its title (about 60 characters) is a real text layer' },
};

/** With the manifest password: text, except a scanned file behind the password. */
const WITH_PASSWORD: Record<string, Outcome> = {
  'issue3371.pdf': 'NO_TEXT_LAYER', // a Kyocera scan: opens with "ELXRTQWS", has no text layer
};

/** Text each readable file must contain. */
const CONTAINS: Record<string, string[]> = {
  'helloworld-bad.pdf': ['Hello, world!'],
  'xref_command_missing.pdf': ['Reduced test-case'],
  'poppler-67295-0.pdf': ['TestString123'],
  'tracemonkey.pdf': ['Trace-based Just-in-Time Type Specialization'],
  'bug1627427_reduced.pdf': ['눈이 올 듯하더니'],
  'hello_world_rotated.pdf': ['Hello world'],
  'rotation.pdf': ['This is my second page. It will have a landscape layout.'],
  'issue14415.pdf': ['Authority'],
  'rotated.pdf': ['Rotated text'],
  'Type3WordSpacing.pdf': ['ab ba abba'],
  'issue6010_1.pdf': ['Issue 6010'],
  'print_protection.pdf': ['Hello World'],
  'saslprep-r6.pdf': ['Hello pdf.js world'],
  'nested_outline.pdf': ['Introduction', 'Background'],
};

const LIMITS = { maxBytes: 10_000_000, maxPages: 1000 };
// A generous wall-clock cap: the child's CPU deadline decides, and a busy machine must not fail a good file.
const ISOLATION = { timeoutMs: 300_000, maxHeapMb: 512 };
const LIGATURES = /[\uFB00-\uFB06]/u;

async function outcomeOf(bytes: Uint8Array, password?: string): Promise<{ outcome: Outcome; doc?: ExtractedDocument; message?: string }> {
  try {
    const doc = await extractIsolated(password === undefined ? { bytes } : { bytes, password }, LIMITS, ISOLATION);
    return { outcome: 'text', doc };
  } catch (err) {
    expect(err).toBeInstanceOf(PermanentError);
    const { code, message } = err as PermanentError;
    expect(ALLOWED).toContain(code);
    return { outcome: code as Outcome, message };
  }
}

function textOf(doc: ExtractedDocument): string {
  return doc.pages.flatMap((p) => p.lines.map((l) => l.text)).join('\n');
}

const dir = sharedPath('pdfs', 'robustness');
const manifest: ManifestFile[] = dir.present
  ? (JSON.parse(readFileSync(path.join(dir.path, 'MANIFEST.json'), 'utf8')) as { files: ManifestFile[] }).files
  : [];

// Each file starts an extraction child of its own, five at a time: on a loaded two-core host that
// can take longer than the default 30 s, which is not what this suite tests.
describe.skipIf(!dir.present).concurrent('robustness corpus through extractIsolated', { timeout: 90_000 }, () => {
  for (const entry of manifest) {
    const expected = PINNED[entry.file]?.outcome ?? BY_CATEGORY[entry.category] ?? 'text';

    it(`${entry.file} (${entry.category}) → ${expected}`, async () => {
      const bytes = new Uint8Array(readFileSync(path.join(dir.path, entry.file)));
      const { outcome, doc, message } = await outcomeOf(bytes);
      expect(outcome, message).toBe(expected);
      if (!doc) return;
      ExtractedDocument.parse(doc);
      if (entry.pages !== null) expect(doc.pageCount).toBe(entry.pages);
      const text = textOf(doc);
      expect(text.replace(/\s/g, '').length).toBeGreaterThan(0);
      expect(text).not.toMatch(LIGATURES);
      for (const s of CONTAINS[entry.file] ?? []) expect(text).toContain(s);
    });

    if (entry.password !== undefined) {
      const password = decodePassword(entry.password);
      const withPassword = WITH_PASSWORD[entry.file] ?? 'text';

      it(`${entry.file} with its password → ${withPassword}`, async () => {
        const bytes = new Uint8Array(readFileSync(path.join(dir.path, entry.file)));
        const { outcome, doc, message } = await outcomeOf(bytes, password);
        expect(outcome, message).toBe(withPassword);
        for (const s of doc ? (CONTAINS[entry.file] ?? []) : []) expect(textOf(doc as ExtractedDocument)).toContain(s);
      });

      it(`${entry.file} with a wrong password → PASSWORD_REQUIRED (incorrect)`, async () => {
        const bytes = new Uint8Array(readFileSync(path.join(dir.path, entry.file)));
        const { outcome, message } = await outcomeOf(bytes, 'definitely-wrong');
        expect(outcome).toBe('PASSWORD_REQUIRED');
        expect(message).toMatch(/incorrect/);
      });
    }
  }

  it('copy_paste_ligatures.pdf comes out with plain letters', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(dir.path, 'copy_paste_ligatures.pdf')));
    const { doc } = await outcomeOf(bytes);
    expect(textOf(doc as ExtractedDocument)).toContain('ffffiflffifflststghijklmno');
  });

  it('tracemonkey.pdf keeps its two columns apart', async () => {
    const bytes = new Uint8Array(readFileSync(path.join(dir.path, 'tracemonkey.pdf')));
    const { doc } = await outcomeOf(bytes);
    const lines = (doc as ExtractedDocument).pages[1]?.lines.map((l) => l.text) ?? [];
    const at = lines.indexOf('• We explain how to speculatively generate efficient type-specialized');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toBe('code for traces from dynamic language programs.');
  });

  it('nested_outline.pdf and freeculture.pdf bring their outlines', async () => {
    const nested = await outcomeOf(new Uint8Array(readFileSync(path.join(dir.path, 'nested_outline.pdf'))));
    expect(nested.doc?.outline.length).toBeGreaterThanOrEqual(3);
    expect(nested.doc?.outline[0]).toMatchObject({ title: '1. Introduction', level: 1, page: 1 });
    expect(nested.doc?.outline.some((o) => o.level > 1)).toBe(true);
    const book = await outcomeOf(new Uint8Array(readFileSync(path.join(dir.path, 'freeculture.pdf'))));
    expect(book.doc?.outline).toContainEqual({ title: 'Chapter 1: Creators', level: 2, page: 35 });
    expect(book.doc?.outline).toContainEqual({ title: '*get it', level: 1, page: null });
    expect(book.doc?.strippedLines).toEqual(expect.arrayContaining(['FREE CULTURE', '<http://free-culture.org/get-it>']));
  });
});
