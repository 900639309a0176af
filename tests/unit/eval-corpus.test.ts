import { describe, expect, it } from 'vitest';
import { createDocIdMap, corpusRows, isSearchable } from '../../eval/corpus-rows.ts';
import { DocId, DocumentRecord } from '../../shared/domain/index.ts';
import { StoredChunkWithoutVector } from '../../shared/store/index.ts';

describe('corpus rows', () => {
  it('keeps valid doc ids and maps others to distinct valid ones, both ways', () => {
    const ids = createDocIdMap();
    expect(ids.toStore('31715818')).toBe('31715818');
    const upper = ids.toStore('MED-10');
    const lower = ids.toStore('med-10');
    expect(lower).toBe('med-10');
    expect(upper).toMatch(/^med-10-[0-9a-f]{12}$/);
    expect(ids.toStore('PMID:1/2')).toMatch(/^pmid-1-2-[0-9a-f]{12}$/);
    expect(ids.toStore('·')).toMatch(/^doc-[0-9a-f]{12}$/);
    for (const id of [upper, lower]) expect(DocId.safeParse(id).success).toBe(true);
    expect(ids.toBeir(upper)).toBe('MED-10');
    expect(ids.toStore('MED-10')).toBe(upper);
    expect(ids.toBeir('never-made')).toBeUndefined();
  });

  it('builds one chunk and one document the store schema accepts', () => {
    const ids = createDocIdMap();
    const vector = new Float32Array([0.6, 0.8]);
    const { chunk, document } = corpusRows(
      { id: 'Doc 1', title: 'Aspirin and fever', text: 'Aspirin lowers fever in adults.' },
      ids,
      { dataset: 'tiny', vector, now: '2025-01-01T00:00:00.000Z' },
    );
    const { vector: v, ...rest } = chunk;
    expect(v).toBe(vector);
    expect(StoredChunkWithoutVector.parse(rest)).toEqual(rest);
    expect(DocumentRecord.parse(document)).toEqual(document);
    expect(chunk.section).toBe('Aspirin and fever');
    expect(chunk.body).toBe('Aspirin lowers fever in adults.');
    expect(chunk.embedding_text).toBe('Aspirin and fever\n\nAspirin lowers fever in adults.');
    expect(chunk.doc_id).toBe(ids.toStore('Doc 1'));
    expect(document.provenance.source_uri).toBe('beir://tiny/Doc%201');
    expect(chunk.version).toBe(document.version);
  });

  it('an untitled document embeds its text alone; one with no letter or digit is not searchable', () => {
    const { chunk } = corpusRows({ id: 'x', title: '', text: 'only text' }, createDocIdMap(), {
      dataset: 't',
      vector: new Float32Array([1]),
      now: '2025-01-01T00:00:00.000Z',
    });
    expect(chunk.embedding_text).toBe('only text');
    expect(isSearchable({ id: 'e', title: ' ', text: '— … —' })).toBe(false);
    expect(isSearchable({ id: 'k', title: '', text: '출산' })).toBe(true);
  });
});
