import { describe, expect, it } from 'vitest';
import { coverDocuments } from '../../shared/retrieval/document-coverage.ts';

const docOf = (x: string) => x.split(':')[0] as string;

describe('coverDocuments', () => {
  it("a missing document's best passage takes the lowest place held by a repeated document", () => {
    const ranked = ['a:1', 'a:2', 'b:1', 'a:3', 'c:1', 'd:1', 'd:2'];
    const { items, promoted } = coverDocuments(ranked, ['a', 'b', 'c', 'd'], docOf, 4);
    // c takes a:3's place; then d takes a:2's (a is still there twice); a:3 and a:2 lead the rest.
    expect(items).toEqual(['a:1', 'd:1', 'b:1', 'c:1', 'a:2', 'a:3', 'd:2']);
    expect(promoted).toEqual(['c', 'd']);
  });

  it('documents already in the window, or without a passage, change nothing', () => {
    const ranked = ['a:1', 'b:1', 'a:2'];
    expect(coverDocuments(ranked, ['a', 'b', 'z'], docOf, 3)).toEqual({ items: ranked, promoted: [] });
  });

  it('never displaces the only passage of a document', () => {
    const ranked = ['a:1', 'b:1', 'c:1'];
    expect(coverDocuments(ranked, ['c'], docOf, 2)).toEqual({ items: ranked, promoted: [] });
  });
});
