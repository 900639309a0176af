import { checkArtifactRef, parseArtifactJson, type ArtifactName, type ArtifactStore } from './artifact-store.ts';

/** Limits of {@link withArtifactCache}. */
export interface ArtifactCacheOptions {
  /** Bytes of artifacts kept (JSON counted as its UTF-8 length); least recently used go first. */
  maxBytes: number;
  /**
   * Artifacts larger than this are never kept (a book's extraction is read once and would only
   * push everything else out).
   * @defaultValue maxBytes / 4
   */
  maxEntryBytes?: number;
}

/** An artifact kept in memory: JSON as its text (parsed and validated on every read), bytes as a private copy. */
type Entry = { kind: 'json'; text: string; size: number } | { kind: 'bytes'; bytes: Uint8Array; size: number };

/** A kept artifact's key, and the document and version it belongs to. */
interface EntryKey {
  key: string;
  docId: string;
  version: string;
}

const entryKey = (docId: string, version: string, name: ArtifactName): EntryKey => ({ key: `${docId}/${version}/${name}`, docId, version });

/**
 * Keeps the artifacts this process wrote or read in memory, so a stage that reads what a stage in
 * the same process just wrote (`quarry dev`, the all-in-one worker) skips the file or bucket round
 * trip. Never stale: an artifact is immutable once written (its version is the content hash of
 * the source, each stage's output a function of it), writes go through to `inner` before they are
 * kept, and `deleteDoc` drops the document's entries — a read or write that overlapped a delete of
 * its document is not kept. JSON is kept as text and parsed and validated on every read, so a
 * reader never shares (or mutates) another reader's objects and a bad artifact fails as before.
 */
export function withArtifactCache(inner: ArtifactStore, options: ArtifactCacheOptions): ArtifactStore {
  const maxEntryBytes = options.maxEntryBytes ?? Math.floor(options.maxBytes / 4);
  const entries = new Map<string, Entry & { ref: EntryKey }>();
  /**
   * The kept keys of each document, so a delete drops its document's entries without walking
   * every entry: the upsert stage deletes a document's other versions after every upsert, and a
   * full cache holds thousands of small documents' artifacts.
   */
  const keysByDoc = new Map<string, Set<string>>();
  /**
   * Documents with reads or writes in flight: how many, and how many deletes of the document began
   * or ended meanwhile. Only documents in use have an entry, so the map stays small.
   */
  const inFlight = new Map<string, { ops: number; deletes: number }>();
  let bytes = 0;

  /** Runs one read or write of `docId`'s artifacts and says whether a delete of it overlapped. */
  async function tracked<T>(docId: string, op: () => Promise<T>): Promise<{ value: T; overlapped: boolean }> {
    let state = inFlight.get(docId);
    if (!state) {
      state = { ops: 0, deletes: 0 };
      inFlight.set(docId, state);
    }
    state.ops += 1;
    const before = state.deletes;
    try {
      const value = await op();
      return { value, overlapped: state.deletes !== before };
    } finally {
      state.ops -= 1;
      if (state.ops === 0) inFlight.delete(docId);
    }
  }

  function drop(key: string): void {
    const old = entries.get(key);
    if (!old) return;
    entries.delete(key);
    bytes -= old.size;
    const keys = keysByDoc.get(old.ref.docId);
    keys?.delete(key);
    if (keys?.size === 0) keysByDoc.delete(old.ref.docId);
  }

  /** Keeps `entry` unless it is too large or a delete of its document overlapped the call. */
  function keep(ref: EntryKey, entry: Entry, overlapped: boolean): void {
    drop(ref.key);
    if (entry.size > maxEntryBytes || overlapped) return;
    entries.set(ref.key, { ...entry, ref });
    bytes += entry.size;
    let keys = keysByDoc.get(ref.docId);
    if (!keys) keysByDoc.set(ref.docId, (keys = new Set()));
    keys.add(ref.key);
    for (const oldest of entries.keys()) {
      if (bytes <= options.maxBytes) break;
      drop(oldest);
    }
  }

  /** The entry, marked most recently used. */
  function hit(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry) {
      entries.delete(key);
      entries.set(key, entry);
    }
    return entry;
  }

  return {
    async putBytes(docId, version, name, data) {
      const ref = entryKey(docId, version, name);
      drop(ref.key);
      const { overlapped } = await tracked(docId, () => inner.putBytes(docId, version, name, data));
      keep(ref, { kind: 'bytes', bytes: data.slice(), size: data.byteLength }, overlapped);
    },
    async getBytes(docId, version, name) {
      checkArtifactRef(docId, version, name);
      const ref = entryKey(docId, version, name);
      const cached = hit(ref.key);
      if (cached?.kind === 'bytes') return cached.bytes.slice();
      const { value: data, overlapped } = await tracked(docId, () => inner.getBytes(docId, version, name));
      keep(ref, { kind: 'bytes', bytes: data.slice(), size: data.byteLength }, overlapped);
      return data;
    },
    async putJson(docId, version, name, value) {
      const ref = entryKey(docId, version, name);
      drop(ref.key);
      const { overlapped } = await tracked(docId, () => inner.putJson(docId, version, name, value));
      const text = JSON.stringify(value);
      keep(ref, { kind: 'json', text, size: Buffer.byteLength(text) }, overlapped);
    },
    async getJson(docId, version, name) {
      checkArtifactRef(docId, version, name);
      const ref = entryKey(docId, version, name);
      const cached = hit(ref.key);
      if (cached?.kind === 'json') return parseArtifactJson(cached.text, docId, name);
      // Read as bytes, as the adapters' getJson does, so the text can be kept.
      const { value: raw, overlapped } = await tracked(docId, () => inner.getBytes(docId, version, name));
      const text = new TextDecoder().decode(raw);
      const value = parseArtifactJson(text, docId, name);
      keep(ref, { kind: 'json', text, size: raw.byteLength }, overlapped);
      return value;
    },
    // Asked of the store itself: callers use it to decide what another process may have deleted.
    exists: (docId, version, name) => inner.exists(docId, version, name),
    listVersions: (docId) => inner.listVersions(docId),
    async deleteDoc(docId, opts) {
      const dropDoc = () => {
        const state = inFlight.get(docId);
        if (state) state.deletes += 1;
        for (const key of [...(keysByDoc.get(docId) ?? [])]) {
          if (entries.get(key)?.ref.version !== opts?.exceptVersion) drop(key);
        }
      };
      dropDoc();
      try {
        await inner.deleteDoc(docId, opts);
      } finally {
        dropDoc();
      }
    },
  };
}
