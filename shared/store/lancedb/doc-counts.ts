/** Rebuilds skipped at most after a rebuilt count was never used (see {@link DocChunkCounts}). */
export const MAX_REBUILD_BACKOFF = 64;

/** The version of counts that no longer describe any (table versions start at 1). */
const STALE = -1;

interface CountsAt {
  /** The table version the counts describe. */
  version: number;
  /** Chunks per document; a document not listed has none. */
  counts: Map<string, number>;
  /** Documents whose count this process's commits changed by an amount it cannot know. */
  unknown: Set<string>;
  /** Lookups answered from these counts. */
  hits: number;
}

/**
 * How many chunks each document has, at one version of the chunks table, carried exactly across
 * this process's own commits. The upsert stage asks, for every document, whether the store holds
 * any chunk of it, and a LanceDB count scans every data file no index covers yet: on a
 * search-idle store (no compaction for up to 10 s) each such count cost 6–8 ms of CPU, more than
 * the merge-insert of the document's chunks. With one scan of the `doc_id` column the counts of
 * every document are known at that version, and each commit of this process moves them to the
 * commit's version: LanceDB numbers versions one by one, so a commit whose version follows the
 * counts' directly was the only change in between. A commit of anyone else — another process, a
 * compaction — leaves a gap, and the counts are not used again until the next scan.
 *
 * A rebuild that no lookup used before the next gap (a store searched while it is written, so
 * compacted after every commit) doubles the number of lookups answered by plain counts before
 * the next scan, up to {@link MAX_REBUILD_BACKOFF}; a used one resets it. Pure bookkeeping: the
 * caller reads versions and scans.
 */
export class DocChunkCounts {
  private state: CountsAt | null = null;
  private backoff = 0;
  private skip = 0;

  /** The exact number of `docId`'s chunks at `version`, when this process knows it. */
  lookup(docId: string, version: number): number | undefined {
    const s = this.state;
    if (!s || s.version !== version || s.unknown.has(docId)) return undefined;
    s.hits += 1;
    return s.counts.get(docId) ?? 0;
  }

  /**
   * After a lookup missed: whether to rebuild the counts with a scan now (true) or answer this
   * one lookup by a count of the document alone. A current state missed only for an unknown
   * document: no rebuild.
   */
  shouldRebuild(version: number): boolean {
    const s = this.state;
    if (s && s.version === version) return false;
    if (s) {
      this.backoff = s.hits > 0 ? 0 : Math.min(MAX_REBUILD_BACKOFF, Math.max(1, this.backoff * 2));
      this.skip = this.backoff;
      this.state = null;
    }
    if (this.skip > 0) {
      this.skip -= 1;
      return false;
    }
    return true;
  }

  /** The counts a scan of the whole table at `version` found. */
  rebuilt(version: number, counts: Map<string, number>): void {
    this.state = { version, counts, unknown: new Set(), hits: 0 };
  }

  /**
   * This process committed rows (distinct chunk ids, per document) as `version`, a merge-insert:
   * a document that had no chunk gains exactly its rows; one that had some gains an unknown number.
   */
  committed(version: number, rowsByDoc: ReadonlyMap<string, number>): void {
    const s = this.follows(version, false);
    if (!s) return;
    for (const [docId, rows] of rowsByDoc) {
      if (s.unknown.has(docId)) continue;
      if ((s.counts.get(docId) ?? 0) === 0) s.counts.set(docId, rows);
      else s.unknown.add(docId);
    }
  }

  /** This process deleted `docId`'s chunks as `version`: all of them, or (`all` false) some. */
  deleted(version: number, docId: string, all: boolean): void {
    // A delete that matched nothing may leave the version as it was.
    const s = this.follows(version, true);
    if (!s) return;
    s.counts.delete(docId);
    if (all) s.unknown.delete(docId);
    else s.unknown.add(docId);
  }

  /** The state, moved to `version` when that is the next version (or, `sameOk`, the same one); else none. */
  private follows(version: number, sameOk: boolean): CountsAt | null {
    const s = this.state;
    if (!s) return null;
    if (version !== s.version + 1 && !(sameOk && version === s.version)) {
      // A gap: someone else committed in between. No version is described any more; the state
      // stays for its hit count until the next lookup misses.
      s.version = STALE;
      return null;
    }
    s.version = version;
    return s;
  }
}

/** Distinct chunk ids per document among `rows`. */
export function rowsPerDoc(rows: readonly { chunk_id: string; doc_id: string }[]): Map<string, number> {
  const ids = new Map<string, Set<string>>();
  for (const row of rows) {
    let set = ids.get(row.doc_id);
    if (!set) ids.set(row.doc_id, (set = new Set()));
    set.add(row.chunk_id);
  }
  return new Map([...ids].map(([docId, set]) => [docId, set.size]));
}
