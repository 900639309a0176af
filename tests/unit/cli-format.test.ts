import { describe, expect, it } from 'vitest';
import { documentProgress, formatCoverage, formatStatuses, progressBar } from '../../apps/cli/format.ts';
import { parseStages } from '../../apps/cli/commands/run.ts';
import { WORKER_NAMES } from '../../workers/index.ts';
import type { DocStatus } from '../../shared/status/doc-status.ts';

const base: DocStatus = {
  docId: 'd',
  sourceKey: 'dir:d.pdf',
  version: 'v',
  gen: 0,
  state: 'running',
  stage: 'chunk',
  progress: 50,
  errorCode: null,
  errorMessage: null,
  timings: {},
  pageCount: 3,
  chunkCount: null,
  registeredAt: '',
  updatedAt: '',
};

describe('cli formatting', () => {
  it('draws progress bars', () => {
    expect(progressBar(0, 10)).toBe('[----------]   0%');
    expect(progressBar(55, 10)).toBe('[######----]  55%');
    expect(progressBar(140, 4)).toBe('[####] 100%');
  });

  it('measures whole-pipeline progress', () => {
    expect(documentProgress(base)).toBeCloseTo((2.5 / 6) * 100);
    expect(documentProgress({ ...base, state: 'indexed' })).toBe(100);
  });

  it('lists failures with their reasons and sums states', () => {
    const out = formatStatuses([
      { ...base, docId: 'a', state: 'indexed', chunkCount: 7 },
      { ...base, docId: 'b', state: 'failed', stage: 'extract', errorCode: 'PASSWORD_REQUIRED', errorMessage: 'needs a password' },
    ]);
    expect(out).toMatch(/a\s+indexed\s+3p\s+7 chunks/);
    expect(out).toContain('PASSWORD_REQUIRED: needs a password');
    expect(out).toMatch(/1 indexed, 1 failed$/);
  });

  it('shows coverage, and a document whose text is not all indexed with the pages concerned', () => {
    expect(formatCoverage(1)).toBe('100% indexed');
    expect(formatCoverage(0.99999)).toBe('99.9% indexed');
    expect(formatCoverage(0.9)).toBe('90.0% indexed');
    const coverage = { ratio: 0.9, bodyChars: 1000, indexedChars: 900, runningChars: 0, unindexed: [{ page: 4, chars: 100 }] };
    const warning = { code: 'TEXT_NOT_INDEXED', message: '100 of 1000 characters of body text (10.0%) are in no chunk', pages: [4] };
    const out = formatStatuses([{ ...base, docId: 'e', state: 'indexed', chunkCount: 4, coverage, warnings: [warning] }]);
    expect(out).toMatch(/e\s+indexed\s+3p\s+4 chunks\s+90\.0% indexed\s+warning TEXT_NOT_INDEXED: 100 of 1000 characters .* \(pages 4\)/);
  });

  it('shows the warnings of a document indexed with reservations', () => {
    const warning = { code: 'GARBLED_TEXT', message: 'The text layer of page 2 decodes to garbage (mojibake).', pages: [2] };
    const out = formatStatuses([{ ...base, docId: 'c', state: 'indexed', chunkCount: 4, warnings: [warning] }]);
    expect(out).toMatch(/c\s+indexed\s+3p\s+4 chunks\s+warning GARBLED_TEXT: The text layer of page 2 decodes to garbage/);
  });

  it("shows what an indexed document is about (its profile's line)", () => {
    const profile = {
      organisations: [{ name: 'Orchard Devices Inc.', aliases: ['orchard', 'orcd'] }],
      form: '10-Q',
      period: { end: '2023-07-01', fiscalYear: 2023, fiscalQuarter: 3, calendarYear: 2023, calendarQuarter: 2, edition: null },
      label: 'Orchard Devices Inc. (ORCD) · 10-Q · fiscal 2023 Q3',
    };
    const out = formatStatuses([{ ...base, docId: 'c', state: 'indexed', chunkCount: 4, profile }]);
    expect(out).toMatch(/c\s+indexed\s+3p\s+4 chunks\s+Orchard Devices Inc\. \(ORCD\) · 10-Q · fiscal 2023 Q3/);
  });

  it('parses --only and names unknown stages', () => {
    expect(parseStages('extract, chunk')).toEqual(['extract', 'chunk']);
    // Every worker: the seven ingest stages first, then the others (memory, facets, …).
    expect(parseStages(undefined)).toEqual([...WORKER_NAMES]);
    expect(parseStages(undefined).slice(0, 7)).toEqual(['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert', 'delete']);
    expect(parseStages(undefined)).toEqual(expect.arrayContaining(['memory-update', 'memory-decay']));
    expect(parseStages('memory-update,memory-decay')).toEqual(['memory-update', 'memory-decay']);
    expect(() => parseStages('extract,ocr')).toThrow(/unknown stage\(s\): ocr; known: extract,/);
  });
});
