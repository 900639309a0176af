import { splitSentences } from '../chunk/index.ts';
import { FACET_VALUE_MAX_CHARS, type FacetName } from '../store/index.ts';
import { UNINFORMATIVE_VALUES } from './facet-glossary.ts';

/*
 * Deterministic sampling for facet-value texts. Every choice is a minimum of a seeded hash, so
 * the picks depend on WHAT the store holds, never on the order a scan returns it in: the same
 * corpus gives the same texts (and, with a cached embedder, the same vectors) on every rebuild,
 * in every adapter. The seed is the facet and value, so two values sharing documents do not
 * all quote the same passage.
 */

/** The fields of a chunk the collector reads. */
export type FacetChunkRef = { chunk_id: string; doc_id: string } & Record<FacetName, string>;

/** How much of each value is kept for its text. */
export interface FacetSamplingOptions {
  /**
   * Chunks read per value, spread evenly over the documents carrying it (one from each of up
   * to this many documents, more per document when fewer documents carry the value).
   * @defaultValue 10
   */
  maxChunks?: number;
  /**
   * Sentences in a value's text, at most.
   * @defaultValue 10
   */
  maxSentences?: number;
  /**
   * Sentences in a value's text, at least, when its chunks have that many: short or
   * heading-like sentences are taken to reach it.
   * @defaultValue 3
   */
  minSentences?: number;
  /**
   * Longer sentences are cut at a word boundary: a legal sentence can run for 500 characters
   * and would otherwise outweigh the description.
   * @defaultValue 240
   */
  maxSentenceChars?: number;
}

/** The chunks picked for one facet value. */
export interface FacetValuePick {
  facet: FacetName;
  value: string;
  /** Chunks carrying the value (all of them, not only the picked ones). */
  chunkCount: number;
  /** Picked chunk ids, round-robin over documents in seeded order. */
  chunkIds: string[];
}

/**
 * A 53-bit string hash (cyrb53): fast, well mixed, stable across platforms. Not cryptographic;
 * it only has to spread picks evenly.
 */
export function seededHash(seed: string, text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const s = `${seed}\u0000${text}`;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The seed of a facet value. */
export function facetSeed(facet: FacetName, value: string): string {
  return `${facet}\u0001${value}`;
}

interface Ranked {
  id: string;
  rank: number;
}

/** Keeps the `limit` items of smallest (rank, id): order-independent, bounded memory. */
function keepSmallest<T extends Ranked>(list: T[], item: T, limit: number): void {
  const before = (a: Ranked, b: Ranked) => a.rank < b.rank || (a.rank === b.rank && a.id < b.id);
  if (list.length >= limit) {
    const last = list[list.length - 1] as T;
    if (!before(item, last)) return;
    list.pop();
  }
  let i = list.length;
  while (i > 0 && before(item, list[i - 1] as T)) i -= 1;
  list.splice(i, 0, item);
}

interface DocSlot extends Ranked {
  chunks: Ranked[];
}

interface ValueState {
  facet: FacetName;
  value: string;
  count: number;
  docs: DocSlot[];
}

/** Feeds chunk refs one at a time; memory stays O(values × maxChunks²) whatever the corpus size. */
export interface FacetSampleCollector {
  add(chunk: FacetChunkRef): void;
  /** Picks per value, sorted by facet (in the order asked) then value. */
  picks(): FacetValuePick[];
}

/**
 * Collects, for every value of `facets`, the chunks to sample: the documents with the smallest
 * seeded rank (at most `maxChunks`), and within each the chunks with the smallest seeded rank.
 * Values that say nothing (`unknown`, empty) or are too long to be labels are skipped.
 */
export function createFacetSampleCollector(facets: readonly FacetName[], options: FacetSamplingOptions = {}): FacetSampleCollector {
  const maxChunks = options.maxChunks ?? 10;
  const states = new Map<string, ValueState>();
  return {
    add(chunk) {
      for (const facet of facets) {
        const value = chunk[facet];
        if (typeof value !== 'string' || value.length > FACET_VALUE_MAX_CHARS || UNINFORMATIVE_VALUES.has(value.trim().toLowerCase())) continue;
        const key = `${facet}\u0000${value}`;
        let state = states.get(key);
        if (!state) {
          state = { facet, value, count: 0, docs: [] };
          states.set(key, state);
        }
        state.count += 1;
        const seed = facetSeed(facet, value);
        let doc = state.docs.find((d) => d.id === chunk.doc_id);
        if (!doc) {
          const slot: DocSlot = { id: chunk.doc_id, rank: seededHash(seed, chunk.doc_id), chunks: [] };
          keepSmallest(state.docs, slot, maxChunks);
          doc = state.docs.find((d) => d.id === chunk.doc_id);
          if (!doc) continue; // ranked out: this document is not among the sampled ones
        }
        keepSmallest(doc.chunks, { id: chunk.chunk_id, rank: seededHash(seed, chunk.chunk_id) }, maxChunks);
      }
    },
    picks() {
      const order = new Map(facets.map((f, i) => [f, i]));
      return [...states.values()]
        .sort((a, b) => (order.get(a.facet) ?? 0) - (order.get(b.facet) ?? 0) || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
        .map((s) => ({ facet: s.facet, value: s.value, chunkCount: s.count, chunkIds: roundRobin(s.docs.map((d) => d.chunks.map((c) => c.id)), maxChunks) }));
    },
  };
}

/** Takes the first item of each list, then the second of each, … until `limit` items. */
export function roundRobin<T>(lists: readonly (readonly T[])[], limit: number): T[] {
  const out: T[] = [];
  for (let depth = 0; out.length < limit; depth++) {
    let any = false;
    for (const list of lists) {
      if (depth < list.length) {
        any = true;
        out.push(list[depth] as T);
        if (out.length >= limit) break;
      }
    }
    if (!any) break;
  }
  return out;
}

function cut(sentence: string, maxChars: number): string {
  const s = sentence.replace(/\s+/g, ' ').trim();
  if (s.length <= maxChars) return s;
  const head = s.slice(0, maxChars);
  const space = head.lastIndexOf(' ');
  return `${(space > maxChars / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** A sentence worth quoting: some words, not a bare heading, number or list marker. */
function informative(sentence: string): boolean {
  const letters = sentence.match(/\p{L}/gu)?.length ?? 0;
  return letters >= 12 && /\s/.test(sentence.trim());
}

/**
 * Picks 3–10 sentences (see options) from the bodies of a value's picked chunks: each body's
 * sentences in seeded order, taken round-robin over the bodies so every document is quoted
 * before any is quoted twice; repeats dropped; informative sentences first, short ones only to
 * reach `minSentences`.
 */
export function pickSentences(seed: string, bodies: readonly string[], options: FacetSamplingOptions = {}): string[] {
  const maxSentences = options.maxSentences ?? 10;
  const minSentences = Math.min(options.minSentences ?? 3, maxSentences);
  const maxChars = options.maxSentenceChars ?? 240;
  const perBody = bodies.map((body) =>
    splitSentences(body)
      .map((s) => cut(s, maxChars))
      .filter((s) => s !== '')
      .map((s) => ({ s, rank: seededHash(seed, s) }))
      .sort((a, b) => a.rank - b.rank || (a.s < b.s ? -1 : a.s > b.s ? 1 : 0)),
  );
  const take = (lists: { s: string }[][], limit: number, into: string[]): void => {
    for (const { s } of roundRobin(lists, Number.MAX_SAFE_INTEGER)) {
      if (into.length >= limit) return;
      if (!into.includes(s)) into.push(s);
    }
  };
  const out: string[] = [];
  take(perBody.map((list) => list.filter((x) => informative(x.s))), maxSentences, out);
  if (out.length < minSentences) take(perBody, minSentences, out);
  return out;
}
