import { expect } from 'vitest';
import { chunkIdFor, sha256Hex, type DocumentRecord } from '../../shared/domain/index.ts';
import { PermanentError } from '../../shared/errors.ts';
import type { StoredChunk } from '../../shared/store/vector-store.ts';

/** Dimension of the hand-made vectors below: small enough to reason about cosines by hand. */
export const DIM = 4;
/** The embedder model name stores under test are created with. */
export const MODEL = 'test-embedder/d4';
/** Another embedder of the same dimension (as hash v1 and v2 are). */
export const OTHER_MODEL = 'other-embedder/d4';

export const VERSION = {
  a1: sha256Hex('doc-a v1'),
  a2: sha256Hex('doc-a v2'),
  b1: sha256Hex('doc-b v1'),
} as const;

export const DOC_A = 'kr-birth-grant-law-0001';
export const DOC_B = 'rfc-6265-cookies-0002';

interface ChunkSpec {
  doc: typeof DOC_A | typeof DOC_B;
  version: string;
  section: string;
  body: string;
  vector: number[];
  entities?: string[];
  valid_from?: string | null;
  valid_to?: string | null;
  page?: number;
  index?: number;
}

const FACETS = {
  [DOC_A]: { doc_type: 'law', jurisdiction: 'KR', lang: 'ko' },
  [DOC_B]: { doc_type: 'rfc', jurisdiction: 'US', lang: 'en' },
} as const;

/** A StoredChunk with a real content-addressed id and sensible defaults. */
export function makeChunk(spec: ChunkSpec): StoredChunk {
  const sectionPath = spec.section;
  return {
    chunk_id: chunkIdFor(spec.doc, sectionPath, spec.body),
    doc_id: spec.doc,
    version: spec.version,
    section: spec.section,
    section_path: sectionPath,
    body: spec.body,
    embedding_text: `${sectionPath}\n${spec.body}`,
    page_start: spec.page ?? 1,
    page_end: spec.page ?? 1,
    chunk_index: spec.index ?? 0,
    total_chunks: 3,
    token_count: spec.body.length,
    entities: spec.entities ?? [],
    valid_from: spec.valid_from ?? null,
    valid_to: spec.valid_to ?? null,
    ...FACETS[spec.doc],
    created_at: '2025-01-02T03:04:05.678Z',
    updated_at: '2025-01-02T03:04:05.678Z',
    vector: spec.vector,
  };
}

/**
 * The fixed corpus: three Korean law chunks (validity windows, spacing variants of 출산장려금)
 * and three English RFC chunks about cookies. Vectors are hand-made so vector order is known.
 */
export function corpus(): Record<'a1' | 'a2' | 'a3' | 'b1' | 'b2' | 'b3', StoredChunk> {
  return {
    a1: makeChunk({
      doc: DOC_A, version: VERSION.a1, section: '지원대상', index: 0, page: 1,
      body: '출산장려금은 자녀를 출산한 가구에 지급한다.',
      entities: ['출산장려금', '출산 장려금'], valid_from: '2020-01-01', valid_to: '2023-01-01',
      vector: [1, 0, 0, 0],
    }),
    a2: makeChunk({
      doc: DOC_A, version: VERSION.a1, section: '신청', index: 1, page: 2,
      body: '출산 장려금 신청 절차와 구비 서류를 정한다.',
      entities: ['출산장려금', '출산 장려금', '신청'], valid_from: '2023-01-01', valid_to: null,
      vector: [0.9, 0.1, 0, 0],
    }),
    a3: makeChunk({
      doc: DOC_A, version: VERSION.a1, section: '자격', index: 2, page: 3,
      body: '주택 청약 자격 요건은 따로 정한다.',
      entities: ['주택청약'], vector: [0, 1, 0, 0],
    }),
    b1: makeChunk({
      doc: DOC_B, version: VERSION.b1, section: 'cookie header', index: 0, page: 1,
      body: 'The Cookie header field carries stored state from the user agent to the origin server.',
      entities: ['Cookie', "O'Brien \\ quoted"], vector: [0, 0, 1, 0],
    }),
    b2: makeChunk({
      doc: DOC_B, version: VERSION.b1, section: 'set-cookie', index: 1, page: 2,
      body: 'Set-Cookie attributes such as Expires, Max-Age and Domain control a cookie.',
      entities: ['Set-Cookie'], valid_from: '2011-04-01', vector: [0, 0, 0.8, 0.2],
    }),
    b3: makeChunk({
      doc: DOC_B, version: VERSION.b1, section: 'security', index: 2, page: 5,
      body: 'Security considerations: servers should encrypt state and avoid ambient authority.',
      entities: ['security'], valid_from: '2011-04-01', valid_to: '2030-01-01', vector: [0, 0, 0, 1],
    }),
  };
}

/** The Document rows of the corpus. */
export function documents(): Record<'a' | 'b', DocumentRecord> {
  const provenance = (name: string, version: string) => ({
    source_uri: `file://inbox/${name}.pdf`,
    sha256: version,
    fetched_at: '2025-01-01T00:00:00.000Z',
    collector: 'contract-test',
    bytes: 1234,
  });
  return {
    a: {
      doc_id: DOC_A, version: VERSION.a1, title: '출산장려금 지급 조례', doc_type: 'law', jurisdiction: 'KR', lang: 'ko',
      valid_from: '2020-01-01', valid_to: null, entities: ['출산장려금', '출산 장려금'], page_count: 3,
      provenance: provenance('birth-grant', VERSION.a1),
    },
    b: {
      doc_id: DOC_B, version: VERSION.b1, title: 'HTTP State Management Mechanism', doc_type: 'rfc', jurisdiction: 'US', lang: 'en',
      valid_from: '2011-04-01', valid_to: null, entities: ['Cookie'], page_count: 37,
      provenance: provenance('rfc6265', VERSION.b1),
      // A profile round-trips through every store (document a has none: old rows read back without one).
      profile: {
        organisations: [{ name: 'Internet Engineering Task Force', aliases: ['internet engineering task force', 'ietf'] }],
        form: 'standard',
        period: { end: '2011-04-01', fiscalYear: null, fiscalQuarter: null, calendarYear: 2011, calendarQuarter: null, edition: 'RFC 6265' },
        label: 'Internet Engineering Task Force · standard · edition RFC 6265 · effective 2011-04-01',
      },
    },
  };
}

/** Cosine similarity, computed here independently of any store. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return dot / Math.sqrt(na * nb);
}

/** Expects `promise` to reject with a PermanentError of `code`. */
export async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(PermanentError);
  expect((err as PermanentError).code).toBe(code);
}

/** Creates the schema at {@link DIM} and writes both documents and every chunk of `chunks`: the state most contract tests start from. */
export async function seedStore(
  store: { ensureSchema(r: { dimension: number; model: string }): Promise<unknown>; upsertDocuments(d: DocumentRecord[]): Promise<unknown>; upsertChunks(c: StoredChunk[]): Promise<unknown> },
  chunks: Record<string, StoredChunk>,
): Promise<void> {
  await store.ensureSchema({ dimension: DIM, model: MODEL });
  const d = documents();
  await store.upsertDocuments([d.a, d.b]);
  await store.upsertChunks(Object.values(chunks));
}
