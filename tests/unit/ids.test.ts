import { describe, expect, it } from 'vitest';
import { chunkIdFor, docIdForSource, uuid5Of } from '../../shared/domain/ids.ts';
import { ingestJobId } from '../../queues/define-queue.ts';
import { INGEST_QUEUES } from '../../queues/ingest.queues.ts';

describe('ids', () => {
  it('doc ids are readable, stable and keep similar keys apart', () => {
    expect(docIdForSource('dir:policies/Parental Leave.pdf')).toMatch(/^dir-policies-parental-leave-[0-9a-f]{10}$/);
    expect(docIdForSource('dir:a/b.pdf')).toBe(docIdForSource('dir:a/b.pdf'));
    expect(docIdForSource('dir:a/b.pdf')).not.toBe(docIdForSource('dir:a-b.pdf'));
    expect(docIdForSource('dir:근로기준법.pdf')).toMatch(/^dir-[0-9a-f]{10}$/);
  });

  it('uuid5 keys are delimited: moving a boundary changes the id', () => {
    expect(uuid5Of(['ab', 'c'])).not.toBe(uuid5Of(['a', 'bc']));
    expect(uuid5Of(['a|b', 'c'])).not.toBe(uuid5Of(['a', 'b|c']));
    expect(uuid5Of(['x'])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('chunk ids are content-addressed: whitespace does not matter, text and place do', () => {
    const a = chunkIdFor('d', 'A > B', 'Some  text\nhere');
    expect(chunkIdFor('d', 'A > B', 'Some text here')).toBe(a);
    expect(chunkIdFor('d', 'A > C', 'Some text here')).not.toBe(a);
    expect(chunkIdFor('d', 'A > B', 'Some text there')).not.toBe(a);
    expect(chunkIdFor('d', 'A > B', 'Some text here', 1)).not.toBe(a);
  });

  it('job ids are deterministic and never contain ":"', () => {
    const p = { docId: 'doc-1', version: 'a'.repeat(64), gen: 2 };
    for (const q of INGEST_QUEUES.slice(0, 6)) {
      expect(q.jobId(p)).toBe(ingestJobId(q.name, p));
      expect(q.jobId(p)).not.toContain(':');
    }
  });
});
