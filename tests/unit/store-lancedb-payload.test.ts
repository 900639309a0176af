import { describe, expect, it } from 'vitest';
import { chunkToRow, encodePayload, payloadChunk, rowToChunk } from '../../shared/store/lancedb/schema.ts';
import { DOC_A, VERSION, makeChunk } from '../contract/store-fixtures.ts';

describe('the chunk payload column', () => {
  const chunk = makeChunk({ doc: DOC_A, version: VERSION.a1, section: '제2조(정의)', body: '출산 장려금은 자녀 1인당 지급한다.', vector: [1, 0, 0, 0], valid_from: '2024-01-01', entities: ['출산장려금'] });
  const { vector: _vector, ...fields } = chunk;

  it('reads back exactly what the columns hold, an embedding text that ends with the body stored as its prefix only', () => {
    const row = chunkToRow(chunk);
    expect(payloadChunk(row)).toEqual(fields);
    expect(payloadChunk(row)).toEqual(rowToChunk(row));
    expect(String(row.payload)).not.toContain(chunk.embedding_text);
    expect(String(row.payload).length).toBeLessThan(JSON.stringify(fields).length);
  });

  it('stores any other embedding text whole', () => {
    const other = { ...fields, embedding_text: `${fields.body}\n(appendix)` };
    expect(payloadChunk({ payload: encodePayload(other) })).toEqual(other);
    const empty = { ...fields, body: '' };
    expect(payloadChunk({ payload: encodePayload(empty) })).toEqual(empty);
  });

  it('a row written before the payload existed has none', () => {
    expect(payloadChunk({ payload: null })).toBeNull();
    expect(payloadChunk({})).toBeNull();
  });
});
