/**
 * A table drawn cell by cell, as browsers and word processors print HTML and Word tables: each
 * header cell's wrapped lines, then the next cell's; a wrapped row label ("Services and" /
 * "software revenue") before its figures, which sit at the label's first line. Extraction keeps
 * far-apart runs as separate lines (a two-column page's gutter), so the table is put back
 * together from their heights: one table, every row whole, its columns named, across its page
 * break, with every printed line held.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import { lineInventory } from '../../shared/sectionize/flat-lines.ts';
import { chunkStageWithCoverage } from '../../workers/chunk/chunk.stage.ts';
import { extractStage } from '../../workers/extract/extract.stage.ts';
import { sectionizeWithTablesStage } from '../../workers/sectionize/sectionize.stage.ts';
import { renderPdf } from '../../examples/pdf-writer.ts';

const HEADER = ['', 'Three Months Ended September 30, 2023', 'Three Months Ended September 30, 2022', 'Nine Months Ended September 30, 2023', 'Nine Months Ended September 30, 2022'];
/** Forty rows, every other label long enough to wrap in its column: the page breaks inside them. */
const ROWS = Array.from({ length: 40 }, (_, i) => {
  const label = i % 2 === 0 ? `Services and software revenue of line ${i}` : `Systems revenue ${i}`;
  return [label, `${100 + i}`, `${200 + i}`, `${1000 + i}`, `${2000 + i}`];
});

describe('a table drawn cell by cell', () => {
  it('is read whole: wrapped headers name the columns, wrapped labels keep their figures, one table over both pages', async () => {
    const { bytes, pageCount } = await renderPdf({
      title: 'Acme Reports Results',
      lang: 'en',
      pageSize: 'letter',
      blocks: [
        { type: 'heading', level: 1, text: 'Condensed Consolidated Statements of Operations' },
        { type: 'paragraph', text: '(In millions, except per share amounts; unaudited)' },
        { type: 'table', header: HEADER, rows: ROWS },
      ],
    });
    expect(pageCount).toBeGreaterThan(1);
    const doc = await extractStage({ bytes }, { maxBytes: 5_000_000, maxPages: 20 });
    // The runs of one printed row are separate lines: what this test is about.
    expect(doc.pages[0]?.lines.some((l) => l.text === 'Services and')).toBe(true);
    const { sections, tables } = sectionizeWithTablesStage(doc);
    expect(tables).toHaveLength(1);
    const table = tables[0]?.table;
    expect(table?.columns).toEqual(HEADER.slice(1));
    expect(table?.scale).toBe('millions');
    expect(table?.rows.map((r) => [r.label, ...r.cells.map((c) => c?.text ?? null)])).toEqual(ROWS);
    expect(table?.pageEnd).toBeGreaterThan(table?.pageStart ?? 0);
    // Every printed line is held: the table's in the table, none left over as prose.
    const out = chunkStageWithCoverage({ docId: 'd', version: 'v', docType: 'unknown', sections, inventory: lineInventory(doc), tables }, DEFAULT_CHUNK_POLICIES, createCl100kCounter());
    expect(out.coverage?.ratio).toBe(1);
    expect(out.chunks.some((c) => !c.table && /\b10[0-9] 20[0-9]\b/u.test(c.body))).toBe(false);
  });
});
