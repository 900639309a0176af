import { describe, expect, it } from 'vitest';
import { createDocumentLookup } from '../../shared/agent/document-lookup.ts';
import type { DocumentRecord } from '../../shared/domain/index.ts';
import type { DirectoryEntry } from '../../shared/retrieval/index.ts';

const V1 = 'a'.repeat(64);
const V2 = 'b'.repeat(64);

function entry(docId: string, version: string, title: string): DirectoryEntry {
  return { doc_id: docId, version, title, doc_type: 'report', profile: null };
}

/** A lookup over `listing` whose store reads are counted and answered from `rows`; `t` is its clock. */
function lookupOver(listing: () => Promise<DirectoryEntry[]>, rows: Record<string, { title: string } | Error>) {
  const reads: string[] = [];
  const clock = { t: 0 };
  const lookup = createDocumentLookup({
    listing,
    read: async (docId) => {
      reads.push(docId);
      const row = rows[docId];
      if (row instanceof Error) throw row;
      return row ? ({ doc_id: docId, version: V2, title: row.title, profile: null, provenance: { source_uri: `file:///inbox/${docId}.pdf` } } as unknown as DocumentRecord) : null;
    },
    ttlMs: 60_000,
    now: () => clock.t,
  });
  return { lookup, reads, clock };
}

describe('createDocumentLookup (a cited document from the listing, else the store)', () => {
  it('answers from the listing when it holds the version the passage is of, without reading the store', async () => {
    const list = [entry('doc-a', V1, 'Annual report 2024'), entry('doc-b', V1, 'Rules')];
    const { lookup, reads } = lookupOver(async () => list, {});
    expect(await lookup('doc-a', V1)).toMatchObject({ title: 'Annual report 2024' });
    expect(await lookup('doc-b', V1)).toMatchObject({ title: 'Rules' });
    expect(reads).toEqual([]);
  });

  it('reads the store for another version, a document not listed yet, or no version given, and reuses the row within the ttl', async () => {
    const list = [entry('doc-a', V1, 'Old title')];
    const { lookup, reads, clock } = lookupOver(async () => list, { 'doc-a': { title: 'New title' }, 'doc-new': { title: 'Just ingested' } });
    // Re-ingested since the listing: its passages are of V2, so the listed title is not theirs.
    expect(await lookup('doc-a', V2)).toMatchObject({ title: 'New title', source: 'file:///inbox/doc-a.pdf' });
    expect(await lookup('doc-new', V2)).toMatchObject({ title: 'Just ingested' });
    expect(await lookup('doc-a')).toMatchObject({ title: 'New title' });
    expect(reads).toEqual(['doc-a', 'doc-new']);
    clock.t = 60_001;
    await lookup('doc-a', V2);
    expect(reads).toEqual(['doc-a', 'doc-new', 'doc-a']);
  });

  it('reads the store when the listing fails, and does not remember a failed read', async () => {
    const { lookup, reads } = lookupOver(async () => Promise.reject(new Error('store down')), { 'doc-a': new Error('still down') });
    await expect(lookup('doc-a', V1)).rejects.toThrow('still down');
    await expect(lookup('doc-a', V1)).rejects.toThrow('still down');
    expect(reads).toEqual(['doc-a', 'doc-a']);
  });

  it('follows a new listing (a refresh) to the entries it holds', async () => {
    let list = [entry('doc-a', V1, 'First')];
    const { lookup, reads } = lookupOver(async () => list, {});
    expect(await lookup('doc-a', V1)).toMatchObject({ title: 'First' });
    list = [entry('doc-a', V2, 'Second')];
    expect(await lookup('doc-a', V2)).toMatchObject({ title: 'Second' });
    expect(reads).toEqual([]);
  });
});
