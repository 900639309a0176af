/**
 * The Lua of the status store (shared/status/status-store.ts), run by shared/redis/lua.ts. KEYS[1]
 * is always the document's status record (`statusKeys(prefix).record(docId)`, shared/redis/keys.ts).
 */
import { defineLuaScript, luaSource } from '../redis/index.ts';

/** A field and its value, flattened, as UPDATE takes them after its fixed ARGV. */
type FieldValues = (string | number)[];

// Registration decides, atomically, whether bytes are new: the same version registered twice is
// "unchanged" (never re-processed) unless forced or the document was deleted in between.
// The generation is a nonce drawn by the client (ARGV[7] for a first registration, previous +
// ARGV[8] after that), not a counter Redis alone keeps: after Redis loses data (or fails over to
// a lagging replica) a new registration does not reuse a generation, and so a job id, that a
// stale worker may still hold.
/** Registers a version (KEYS: record, index). Returns whether it was new and the generation it runs under. */
export const REGISTER = defineLuaScript<
  [record: string, index: string],
  [docId: string, sourceKey: string, version: string, at: string, force: '1' | '0', atMs: number, firstGen: number, genStep: number],
  { action: 'registered' | 'unchanged'; gen: number }
>({
  name: 'status-register',
  keys: 2,
  source: luaSource(new URL('./status-register.lua', import.meta.url)),
  reply: (raw) => {
    const [action, gen] = raw as [string, number];
    return { action: action === 'unchanged' ? 'unchanged' : 'registered', gen: Number(gen) };
  },
});

// Updates from a stage apply only to the version and generation that is current: a job of a
// superseded version may still be running and must not overwrite the newer one's status. With a
// stage (ARGV[4]), only while the document is queued at or running that stage: a job delivered
// again after its work was handed on must not move the document back.
/** Sets fields of the record (ARGV from 5: field, value, …) under those conditions. True when applied. */
export const UPDATE = defineLuaScript<[record: string], [version: string, gen: string, at: string, atStage: string, ...fields: FieldValues], boolean>({
  name: 'status-update',
  keys: 1,
  source: luaSource(new URL('./status-update.lua', import.meta.url)),
  reply: (raw) => Number(raw) === 1,
});

/** Starts a deletion under a new generation. Returns it, or null when there is nothing to delete. */
export const MARK_DELETING = defineLuaScript<[record: string], [at: string, genStep: number], number | null>({
  name: 'status-mark-deleting',
  keys: 1,
  source: luaSource(new URL('./status-mark-deleting.lua', import.meta.url)),
  reply: (raw) => {
    const gen = Number(raw);
    return gen < 0 ? null : gen;
  },
});

/** Ends the deletion of generation ARGV[1], if it is still the one deleting. True when applied. */
export const MARK_DELETED = defineLuaScript<[record: string], [gen: string, at: string], boolean>({
  name: 'status-mark-deleted',
  keys: 1,
  source: luaSource(new URL('./status-mark-deleted.lua', import.meta.url)),
  reply: (raw) => Number(raw) === 1,
});
