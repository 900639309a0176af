import { describe, expect, it } from 'vitest';
import { baselineProblems, chaosJson, duplicateIds, formatSummary, isSettledState, missingIds, summariseRun, type ChunkRow, type DocOutcome } from '../../chaos/chaos-report.ts';

const row = (chunk_id: string, doc_id = 'a', version = 'v1'): ChunkRow => ({ chunk_id, doc_id, version });
const doc = (docId: string, state: string | null, extra: Partial<DocOutcome> = {}): DocOutcome => ({ docId, state, stage: state === null ? null : 'upsert', errorCode: null, ...extra });

describe('chaos report', () => {
  it('settled means indexed, failed or deleted; no status record is not settled', () => {
    expect(['indexed', 'failed', 'deleted'].map(isSettledState)).toEqual([true, true, true]);
    expect(['queued', 'running', 'deleting'].map(isSettledState)).toEqual([false, false, false]);
    expect(isSettledState(null)).toBe(false);
  });

  it('a chunk id stored twice is a duplicate, in one version or across versions', () => {
    expect(duplicateIds([row('x'), row('y'), row('x')])).toEqual(['x']);
    expect(duplicateIds([row('x', 'a', 'v1'), row('x', 'a', 'v2'), row('z')])).toEqual(['x']);
    expect(duplicateIds([row('x'), row('y')])).toEqual([]);
  });

  it('missing ids are the undisturbed run’s ids the disturbed run lacks; extra ones are not missing', () => {
    expect(missingIds([row('a'), row('b'), row('c')], [row('a'), row('d')])).toEqual(['b', 'c']);
    expect(missingIds([row('a')], [row('a'), row('a')])).toEqual([]);
  });

  it('counts every corpus document once: indexed, failed, or stuck (no status, or still moving)', () => {
    const s = summariseRun({
      docIds: ['d1', 'd2', 'd3', 'd4', 'd5'],
      outcomes: [doc('d1', 'indexed'), doc('d2', 'failed', { errorCode: 'CORRUPT_PDF' }), doc('d3', 'queued', { stage: 'sectionize' }), doc('d5', 'running', { stage: 'extract' }), doc('other', 'queued')],
      rows: [row('a'), row('b'), row('b'), row('x')],
      baselineRows: [row('a'), row('b'), row('c')],
    });
    expect(s.counts).toEqual({ indexed: 1, failed: 1, stuck: 3, duplicate: 1, missing: 1 });
    expect(s.extra).toBe(1);
    expect(s.stuckDocs).toEqual(['d3 (queued at sectionize)', 'd4 (no status)', 'd5 (running at extract)']);
  });

  it('names documents that settled otherwise than in the undisturbed run', () => {
    const s = summariseRun({
      docIds: ['d1', 'd2', 'd3'],
      outcomes: [doc('d1', 'failed', { errorCode: 'WORKER_LOST' }), doc('d2', 'failed', { errorCode: 'NO_TEXT_LAYER' }), doc('d3', 'indexed')],
      baselineOutcomes: [doc('d1', 'indexed'), doc('d2', 'failed', { errorCode: 'NO_TEXT_LAYER' }), doc('d3', 'indexed')],
      rows: [],
      baselineRows: [],
    });
    expect(s.divergent).toEqual(['d1: indexed → failed WORKER_LOST']);
    expect(s.counts.failed).toBe(2);
  });

  it('refuses as a baseline an undisturbed run where a good document failed or a bad one was indexed', () => {
    const outcomes = [doc('good', 'indexed'), doc('bad', 'failed')];
    expect(baselineProblems(outcomes, new Set(['bad']))).toEqual([]);
    const broken = [{ ...doc('good', 'failed'), errorCode: 'CORRUPT_PDF' }, doc('bad', 'indexed'), doc('late', null)];
    expect(baselineProblems(broken, new Set(['bad']))).toEqual(['good: failed (CORRUPT_PDF)', 'bad: indexed', 'late: no status']);
  });

  it('prints exactly the five counts per mode as one JSON line', () => {
    const counts = { indexed: 196, failed: 4, stuck: 0, duplicate: 0, missing: 0 };
    const line = chaosJson({ aof: { ...counts, extra: 3 } as typeof counts, none: { ...counts, stuck: 2 } });
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ aof: counts, none: { ...counts, stuck: 2 } });
  });

  it('formats a summary with the stuck documents it found', () => {
    const s = summariseRun({ docIds: ['d1', 'd2'], outcomes: [doc('d1', 'indexed')], rows: [row('a')], baselineRows: [row('a')] });
    const lines = formatSummary('none', s);
    expect(lines[0]).toBe('none: indexed 1, failed 0, stuck 1; chunk ids: duplicate 0, missing 0, extra 0');
    expect(lines[1]).toBe('  stuck (1): d2 (no status)');
  });
});
