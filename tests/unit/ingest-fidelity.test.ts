/**
 * The two ingest invariants on generated documents: page truth (a chunk's pages are those its
 * first and last printed lines were on, carried per line from extraction, never estimated) and
 * coverage (every printed body line is in some chunk, and what is not is said).
 */
import { describe, expect, it } from 'vitest';
import { coverageOf } from '../../shared/chunk/coverage.ts';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import { MIN_COVERAGE, type Coverage } from '../../shared/domain/coverage.ts';
import type { ExtractedDocument } from '../../shared/domain/extracted.ts';
import { Section } from '../../shared/domain/section.ts';
import { flattenLines, lineInventory } from '../../shared/sectionize/flat-lines.ts';
import { coverageWarning, parseStatusHash } from '../../shared/status/doc-status.ts';
import { chunkStageWithCoverage } from '../../workers/chunk/chunk.stage.ts';
import { sectionizeStage } from '../../workers/sectionize/sectionize.stage.ts';
import { createRng, type Rng } from '../fixtures/corpus-vocabulary.ts';

const counter = createCl100kCounter();

function docOf(pages: string[][]): ExtractedDocument {
  return {
    pageCount: pages.length,
    pages: pages.map((lines, p) => ({
      number: p + 1,
      width: 595,
      height: 842,
      lines: lines.map((text, i) => ({ text, x: 72, y: 780 - 14 * i, fontSize: 10 })),
    })),
    outline: [],
    info: { title: null, creationDate: null },
    strippedLines: [],
    runningChars: 0,
  };
}

/** A sentence of about twelve words drawn from `rng`, numbered so every line is distinct. */
function sentence(rng: Rng, n: number): string {
  const words = ['leave', 'policy', 'employee', 'weeks', 'paid', 'manager', 'request', 'record', 'approval', 'notice', 'period', 'benefit'];
  const out = Array.from({ length: 11 }, () => rng.pick(words));
  return `Line ${n} ${out.join(' ')}.`;
}

/** A long numbered document: headings, prose running over many pages, a blank chapter heading. */
function longDoc(seed: number): ExtractedDocument {
  const rng = createRng(seed);
  const pages: string[][] = [];
  let n = 0;
  const page = (): string[] => {
    const lines: string[] = [];
    pages.push(lines);
    return lines;
  };
  let cur = page();
  const push = (line: string) => {
    if (cur.length >= 40) cur = page();
    cur.push(line);
  };
  for (let chapter = 1; chapter <= 3; chapter++) {
    push(`${chapter} Chapter ${['One', 'Two', 'Three'][chapter - 1]}`);
    for (let sub = 1; sub <= 2; sub++) {
      push(`${chapter}.${sub} Part ${chapter}-${sub} Of The Rules`);
      const length = rng.int(20, 140);
      for (let k = 0; k < length; k++) push(sentence(rng, n++));
    }
  }
  return docOf(pages);
}

function chunked(doc: ExtractedDocument) {
  const sections = sectionizeStage(doc);
  return { sections, ...chunkStageWithCoverage({ docId: 'd', version: 'v', docType: 'unknown', sections, inventory: lineInventory(doc) }, DEFAULT_CHUNK_POLICIES, counter) };
}

describe('page truth', () => {
  it('every span of a section is exactly its printed line, on its page', () => {
    const doc = longDoc(7);
    const lines = flattenLines(doc);
    for (const s of sectionizeStage(doc)) {
      expect(Section.parse(s)).toEqual(s);
      for (const [start, end, page, line] of s.spans ?? []) {
        expect(s.text.slice(start, end)).toBe(lines[line]?.text.trim());
        expect(page).toBe(lines[line]?.page);
      }
    }
  });

  it("a chunk's pages are those of its first and last printed lines, across long sections", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const doc = longDoc(seed);
      const flat = flattenLines(doc);
      const { chunks, spans } = chunked(doc);
      expect(chunks.length).toBeGreaterThan(3);
      chunks.forEach((c, k) => {
        const held = (spans[k] ?? []).map((sp) => sp[3]);
        // Every span is exactly its line's text, where the body holds it.
        for (const [start, end, , line] of spans[k] ?? []) expect(c.body.slice(start, end), `seed ${seed} chunk ${k}`).toBe(flat[line]?.text.trim());
        expect(held.length).toBeGreaterThan(0);
        const pages = held.map((i) => flat[i]?.page ?? 0);
        expect(c.page_start, `seed ${seed} chunk ${k}`).toBe(Math.min(...pages));
        expect(c.page_end, `seed ${seed} chunk ${k}`).toBe(Math.max(...pages));
        // The body holds those lines' text.
        expect(c.body).toContain(flat[held[0] as number]?.text);
        expect(c.body).toContain(flat[held[held.length - 1] as number]?.text);
      });
      // Long sections drift under a proportional estimate: some chunk must start past its section's first page.
      expect(chunks.some((c) => c.page_start > 1 && c.page_start === c.page_end)).toBe(true);
    }
  });
});

describe('coverage', () => {
  it('every printed line of a long document is in a chunk; blank chapter headings are held in their children’s breadcrumbs', () => {
    const { coverage, chunks, headingLines } = chunked(longDoc(11));
    expect(coverage?.ratio).toBe(1);
    expect(coverage?.unindexed).toEqual([]);
    expect(chunks.length).toBe(headingLines.length);
    // "1 Chapter One" has no text of its own: its line is held by the first chunk under it.
    expect(headingLines.flat()).toContain(0);
  });

  it('a table of contents is indexed as a Contents section, not dropped', () => {
    const doc = docOf([
      ['Contents', '1 Scope ........ 2', '2 Terms ........ 2', '3 Rules ........ 3'],
      ['1 Scope', 'This standard applies to every team.', '2 Terms', 'A term means a word with a meaning.'],
      ['3 Rules', 'Follow the rules every day of the week.'],
    ]);
    const { coverage, sections } = chunked(doc);
    expect(coverage?.ratio).toBe(1);
    expect(sections[0]).toMatchObject({ title: 'Contents', source: 'toc' });
  });

  it('counts characters per line, running lines apart, and names the pages whose text no chunk holds', () => {
    const inventory = { pages: [1, 1, 2, 3, 3], chars: [10, 0, 20, 5, 15], runningChars: 7 };
    const cov = coverageOf(inventory, [[0], [2, 4]]);
    expect(cov).toEqual({ ratio: 45 / 50, bodyChars: 50, indexedChars: 45, runningChars: 7, unindexed: [{ page: 3, chars: 5 }] });
    expect(coverageOf({ pages: [], chars: [], runningChars: 0 }, []).ratio).toBe(1);
  });

  it('a document under the threshold carries a TEXT_NOT_INDEXED warning naming the pages; one above carries none', () => {
    const low: Coverage = { ratio: 0.9, bodyChars: 1000, indexedChars: 900, runningChars: 0, unindexed: [{ page: 4, chars: 60 }, { page: 9, chars: 40 }] };
    expect(coverageWarning(low)).toMatchObject({ code: 'TEXT_NOT_INDEXED', pages: [4, 9] });
    expect(coverageWarning(low)?.message).toContain('100 of 1000 characters');
    expect(coverageWarning({ ...low, ratio: MIN_COVERAGE, indexedChars: 995, unindexed: [] })).toBeNull();
    const status = parseStatusHash({
      doc_id: 'd',
      version: 'v',
      gen: '1',
      state: 'indexed',
      warnings: JSON.stringify([{ code: 'GARBLED_TEXT', message: 'x', pages: [2] }]),
      coverage: JSON.stringify(low),
    });
    expect(status?.coverage).toEqual(low);
    expect(status?.warnings?.map((w) => w.code)).toEqual(['GARBLED_TEXT', 'TEXT_NOT_INDEXED']);
  });
});
