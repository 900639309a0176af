/**
 * Greedy packing of a too-big section's units into chunks, with sentence overlap between
 * consecutive chunks and a final pass that keeps the last chunk from being a stub.
 */
import type { ChunkPolicy } from './policy.ts';
import type { Unit } from './units.ts';

/**
 * One packed chunk as unit indices: `overlapFrom ≤ start < end`; units `[overlapFrom, start)`
 * repeat the tail of the previous chunk, `[start, end)` are new.
 */
export interface PackedRange {
  overlapFrom: number;
  start: number;
  end: number;
}

/**
 * Estimated tokens of units `[from, to)` joined: the sum of their counts plus one per join
 * (a separator or a BPE merge lost at the seam — cl100k rarely differs by more). Prefix sums
 * make this O(1).
 */
function sizer(units: readonly Unit[]): (from: number, to: number) => number {
  const prefix = [0];
  for (const u of units) prefix.push((prefix[prefix.length - 1] as number) + u.tokens);
  return (from, to) => (to <= from ? 0 : (prefix[to] as number) - (prefix[from] as number) + (to - from - 1));
}

/**
 * Where the overlap for the chunk after `[start, end)` begins: the longest run of trailing whole
 * units of at most `overlapTokens`, only sentences and items (a list or table is never
 * repeated). Returns `end` for no overlap — e.g. when the last sentence alone is longer than
 * the overlap: a sentence is never cut to make overlap.
 */
function overlapStart(units: readonly Unit[], size: (a: number, b: number) => number, start: number, end: number, overlapTokens: number): number {
  let k = end;
  while (k - 1 > start && size(k - 1, end) <= overlapTokens) {
    const kind = (units[k - 1] as Unit).kind;
    if (kind !== 'sentence' && kind !== 'item' && kind !== 'fragment') break;
    k -= 1;
  }
  return k;
}

/**
 * Packs `units` (each at most `maxTokens`) into ranges of at most `maxTokens` estimated tokens,
 * aiming at `targetTokens`: a unit is added while the chunk stays within the target, or when
 * it overshoots the target by less than the chunk would otherwise fall short, or when the chunk
 * is still under `minTokens`. Each chunk after the first starts with up to `overlapTokens` of
 * the previous chunk's trailing sentences (dropped when they would not leave room).
 *
 * Then stubs: a chunk under `minTokens` is folded into a neighbour when the two fit in
 * `maxTokens`; a last chunk that cannot be folded is re-split with its predecessor at the most
 * even point that keeps both within `[minTokens, maxTokens]` (see {@link fixStubs}).
 */
export function packUnits(units: readonly Unit[], policy: ChunkPolicy): PackedRange[] {
  const { minTokens, targetTokens, maxTokens, overlapTokens } = policy;
  const size = sizer(units);
  const ranges: PackedRange[] = [];
  let i = 0;
  let overlapFrom = 0;
  while (i < units.length) {
    const start = i;
    let from = Math.min(overlapFrom, start);
    if (size(from, start + 1) > maxTokens) from = start;
    i += 1;
    while (i < units.length) {
      const now = size(from, i);
      const next = size(from, i + 1);
      if (next > maxTokens) break;
      if (next <= targetTokens || now < minTokens || next - targetTokens < targetTokens - now) {
        i += 1;
        continue;
      }
      break;
    }
    ranges.push({ overlapFrom: from, start, end: i });
    overlapFrom = overlapTokens > 0 ? overlapStart(units, size, start, i, overlapTokens) : i;
  }
  return fixStubs(units, ranges, policy, size);
}

/**
 * Folds chunks under `minTokens` into a neighbour: into the previous chunk when the two fit in
 * `maxTokens`, else into the next one (a stub can sit mid-section, squeezed between a full
 * chunk and a list or table too big to share a chunk with it). A last chunk that fits neither
 * way is re-split with its predecessor (see {@link rebalanceTail}).
 */
function fixStubs(units: readonly Unit[], input: PackedRange[], policy: ChunkPolicy, size: (a: number, b: number) => number): PackedRange[] {
  const ranges = [...input];
  for (let i = 0; i < ranges.length && ranges.length > 1; ) {
    const cur = ranges[i] as PackedRange;
    if (size(cur.overlapFrom, cur.end) >= policy.minTokens) {
      i += 1;
      continue;
    }
    const prev = ranges[i - 1];
    const next = ranges[i + 1];
    if (prev && size(prev.overlapFrom, cur.end) <= policy.maxTokens) {
      ranges.splice(i - 1, 2, { overlapFrom: prev.overlapFrom, start: prev.start, end: cur.end });
      continue;
    }
    if (next && size(cur.overlapFrom, next.end) <= policy.maxTokens) {
      ranges.splice(i, 2, { overlapFrom: cur.overlapFrom, start: cur.start, end: next.end });
      continue;
    }
    i += 1;
  }
  return rebalanceTail(units, ranges, policy, size);
}

/**
 * A last chunk still under `minTokens` and its predecessor are re-split at the most even point
 * that keeps both within `[minTokens, maxTokens]` (left as they are when there is none, e.g.
 * when the predecessor is one big list).
 */
function rebalanceTail(units: readonly Unit[], ranges: PackedRange[], policy: ChunkPolicy, size: (a: number, b: number) => number): PackedRange[] {
  if (ranges.length < 2) return ranges;
  const last = ranges[ranges.length - 1] as PackedRange;
  const prev = ranges[ranges.length - 2] as PackedRange;
  if (size(last.overlapFrom, last.end) >= policy.minTokens) return ranges;
  const head = ranges.slice(0, -2);
  let best: { a: PackedRange; b: PackedRange; gap: number } | null = null;
  for (let k = prev.start + 1; k < last.end; k += 1) {
    const a: PackedRange = { overlapFrom: prev.overlapFrom, start: prev.start, end: k };
    let bFrom = policy.overlapTokens > 0 ? overlapStart(units, size, prev.start, k, policy.overlapTokens) : k;
    if (size(bFrom, last.end) > policy.maxTokens) bFrom = k;
    const b: PackedRange = { overlapFrom: bFrom, start: k, end: last.end };
    const sa = size(a.overlapFrom, a.end);
    const sb = size(b.overlapFrom, b.end);
    if (sa < policy.minTokens || sb < policy.minTokens || sa > policy.maxTokens || sb > policy.maxTokens) continue;
    const gap = Math.abs(sa - sb);
    if (!best || gap < best.gap) best = { a, b, gap };
  }
  return best ? [...head, best.a, best.b] : ranges;
}
