import { describe, expect, it } from 'vitest';
import { chunksSchema, chunksToArrow, chunkToRow, rowToChunk, rowVector } from '../../shared/store/lancedb/schema.ts';
import { DIM, DOC_A, DOC_B, VERSION, makeChunk } from '../contract/store-fixtures.ts';

describe('chunksToArrow (the chunks table, built column by column)', () => {
  const chunks = [
    makeChunk({ doc: DOC_A, version: VERSION.a1, section: '제2조(정의)', body: '출산 장려금은 자녀 1인당 지급한다.', vector: [1, 0, 0, 0], valid_from: '2024-01-01', entities: ['출산장려금'] }),
    makeChunk({ doc: DOC_B, version: VERSION.b1, section: '4.1 Set-Cookie', body: 'The user agent stores cookies.', vector: [0, 0.5, -0.25, 1], valid_to: '2011-04-30', page: 3, index: 1 }),
    makeChunk({ doc: DOC_B, version: VERSION.b1, section: '', body: '', vector: [0.1, 0.2, 0.3, 0.4], entities: [] }),
  ];

  it('holds every row as chunkToRow gives it, its vector in order, in the table schema', () => {
    const table = chunksToArrow(chunks, DIM);
    expect(table.schema.fields.map((f) => [f.name, String(f.type), f.nullable])).toEqual(chunksSchema(DIM).fields.map((f) => [f.name, String(f.type), f.nullable]));
    expect(table.numRows).toBe(3);
    const rows = table.toArray().map((r) => r.toJSON() as Record<string, unknown>);
    rows.forEach((row, i) => {
      const { vector, ...fields } = chunks[i]!;
      expect(rowToChunk(row)).toEqual(fields);
      expect(row.payload).toBe(chunkToRow(chunks[i]!).payload);
      expect(row.keyword_text).toBe(chunkToRow(chunks[i]!).keyword_text);
      expect(Array.from(rowVector(row))).toEqual(Array.from(Float32Array.from(vector)));
    });
  });

  it('an empty batch is an empty table; a vector of another length is refused, naming the chunk', () => {
    expect(chunksToArrow([], DIM).numRows).toBe(0);
    const bad = { ...chunks[1]!, vector: [1, 2, 3] };
    expect(() => chunksToArrow([chunks[0]!, bad], DIM)).toThrow(new RegExp(`chunk ${bad.chunk_id} has a vector of 3 numbers; the chunks table holds 4`));
  });
});
