/**
 * Which embedder wrote a store's vectors. Vectors of two embedders are not comparable even when
 * their dimensions agree (hash v1 and v2, or an OpenAI model of the same length): a store that
 * mixed them, or a question embedded by another model than the store's, would not fail, its
 * vector side would just be much weaker. So a store records the embedder's `model` name when its
 * schema is created, `ensureSchema` refuses another one, and query paths check it once per process
 * ({@link withEmbedderCheck}).
 */
import { PermanentError } from '../errors.ts';
import type { ChunkIndex } from './chunk-index.ts';
import type { StoreAdmin } from './store-admin.ts';

export type { EmbedderRecord } from './store-admin.ts';

/** What {@link withEmbedderCheck} needs of a store: its record, a count and the search it guards. */
export type EmbedderCheckedStore = Pick<StoreAdmin, 'embedderRecord'> & Pick<ChunkIndex, 'countChunks' | 'hybrid'>;

/**
 * Refuses a model name no store could record meaningfully.
 * @throws PermanentError `STORE_REJECTED` for a blank or non-string model.
 */
export function checkModel(model: unknown): asserts model is string {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new PermanentError('STORE_REJECTED', `ensureSchema needs the embedder's model name, got ${JSON.stringify(model)}`);
  }
}

/** How to get a store whose vectors match the configured embedder (shared by every message). */
export const REBUILD_HINT =
  'Either run with the embedder that wrote the store (EMBEDDER, EMBED_MODEL, EMBED_DIMENSION), or build a new store with this one: ' +
  'an empty QUARRY_DATA_DIR (LanceDB) or a new WEAVIATE_COLLECTION_PREFIX (Weaviate), then re-process every document ' +
  '(`quarry jobs run <manifest> --force`, `quarry ingest register-source --path <pdf> --force`). ' +
  '`quarry reindex` copies the stored vectors, so it does not help.';

/**
 * The error for a store recorded with `recorded` asked to take or answer with `asked`.
 * @param where the store, for the message (a directory, a collection)
 */
export function embedderMismatch(recorded: string, asked: string, where: string): PermanentError {
  return new PermanentError(
    'EMBEDDER_MISMATCH',
    `the vector store (${where}) holds vectors of embedder ${recorded}, but this process embeds with ${asked}: ` +
      `their vectors are not comparable. ${REBUILD_HINT}`,
  );
}

/**
 * Throws {@link embedderMismatch} when a record exists and names another model; passes when it
 * matches or when there is no record.
 */
export function checkEmbedderRecord(recorded: string | null, asked: string, where: string): void {
  if (recorded !== null && recorded !== asked) throw embedderMismatch(recorded, asked, where);
}

/** The warning for a store made before records existed that already holds chunks. */
export function unknownEmbedderWarning(model: string): string {
  return (
    `STORE_EMBEDDER_UNKNOWN: the vector store holds chunks written before stores recorded their embedder, ` +
    `so it cannot be checked against ${model}. If they were embedded by another model (e.g. hash v1), ` +
    `its vector side is much weaker. ${REBUILD_HINT}`
  );
}

/**
 * The store, with `hybrid` checking once per process (until a check passes) that the store's
 * recorded embedder is `opts.model` (`opts.where` names the store in messages): a mismatch fails every search with `EMBEDDER_MISMATCH` (checked
 * again on the next search, so a rebuilt store is picked up); a store without a record that holds
 * chunks passes with one `opts.warn` call per process; an empty one passes silently (its first
 * `ensureSchema` records the model). Every other method is the store's own.
 */
export function withEmbedderCheck<S extends EmbedderCheckedStore>(store: S, opts: { model: string; where: string; warn: (message: string) => void }): S {
  const { model, where, warn } = opts;
  let passed = false;
  let running: Promise<void> | null = null;
  const check = async (): Promise<void> => {
    const record = await store.embedderRecord();
    if (record) checkEmbedderRecord(record.model, model, where);
    else if ((await store.countChunks()) > 0) warn(unknownEmbedderWarning(model));
    passed = true;
  };
  const ensureChecked = (): Promise<void> => {
    if (passed) return Promise.resolve();
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };
  // A Proxy, so getters (the lazy store's `opened`) and every other method stay the store's own.
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'hybrid') {
        return async (q: Parameters<ChunkIndex['hybrid']>[0]) => {
          await ensureChecked();
          return target.hybrid(q);
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
