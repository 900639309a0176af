import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Coverage } from '../domain/coverage.ts';
import type { DocumentProfile } from '../domain/document.ts';
import { defineScript } from './redis-script.ts';
import { parseStatusHash, type DocState, type DocStatus, type StatusWarning } from './doc-status.ts';

// Registration decides, atomically, whether bytes are new: the same version registered twice is
// "unchanged" (never re-processed) unless forced or the document was deleted in between.
// The generation is a nonce drawn by the client (ARGV[7] for a first registration, previous +
// ARGV[8] after that), not a counter Redis alone keeps: after Redis loses data (or fails over to
// a lagging replica) a new registration does not reuse a generation, and so a job id, that a
// stale worker may still hold.
const REGISTER = defineScript(`
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'version', 'state', 'gen')
if cur[1] == ARGV[3] and cur[2] and cur[2] ~= 'deleting' and cur[2] ~= 'deleted' and ARGV[5] ~= '1' then
  return {'unchanged', tonumber(cur[3])}
end
local gen = tonumber(ARGV[7])
if cur[3] then gen = tonumber(cur[3]) + tonumber(ARGV[8]) end
gen = string.format('%d', gen)
for _, f in ipairs(redis.call('HKEYS', h)) do
  if string.sub(f, 1, 2) == 't_' then redis.call('HDEL', h, f) end
end
redis.call('HSET', h, 'doc_id', ARGV[1], 'source_key', ARGV[2], 'version', ARGV[3], 'gen', gen,
  'state', 'queued', 'stage', 'extract', 'progress', 0, 'error_code', '', 'error_message', '',
  'page_count', '', 'chunk_count', '', 'warnings', '', 'profile', '', 'coverage', '', 'registered_at', ARGV[4], 'updated_at', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[1])
return {'registered', tonumber(gen)}
`);

// Updates from a stage apply only to the version and generation that is current: a job of a
// superseded version may still be running and must not overwrite the newer one's status. With a
// stage (ARGV[4]), only while the document is queued at or running that stage: a job delivered
// again after its work was handed on must not move the document back.
const UPDATE = defineScript(`
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'version', 'gen', 'state', 'stage')
if cur[1] ~= ARGV[1] or cur[2] ~= ARGV[2] or cur[3] == 'deleting' or cur[3] == 'deleted' then return 0 end
if ARGV[4] ~= '' and (cur[4] ~= ARGV[4] or (cur[3] ~= 'queued' and cur[3] ~= 'running')) then return 0 end
for i = 5, #ARGV, 2 do redis.call('HSET', h, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', h, 'updated_at', ARGV[3])
return 1
`);

const MARK_DELETING = defineScript(`
local h = KEYS[1]
local cur = redis.call('HMGET', h, 'state', 'gen')
if not cur[1] or cur[1] == 'deleted' then return -1 end
local gen = string.format('%d', tonumber(cur[2]) + tonumber(ARGV[2]))
redis.call('HSET', h, 'state', 'deleting', 'stage', 'delete', 'gen', gen, 'progress', 0, 'updated_at', ARGV[1])
return tonumber(gen)
`);

const MARK_DELETED = defineScript(`
local h = KEYS[1]
if redis.call('HGET', h, 'gen') ~= ARGV[1] or redis.call('HGET', h, 'state') ~= 'deleting' then return 0 end
redis.call('HSET', h, 'state', 'deleted', 'progress', 100, 'updated_at', ARGV[2])
return 1
`);

export type RegisterOutcome = { action: 'registered' | 'unchanged'; gen: number };

export interface StageUpdate {
  state?: DocState;
  stage?: string;
  progress?: number;
  error?: { code: string; message: string } | null;
  timing?: { stage: string; ms: number };
  pageCount?: number;
  chunkCount?: number;
  /** Replaces the document's warnings (an empty list clears them). */
  warnings?: StatusWarning[];
  /** The document's profile (organisations, period, form), shown with its status; null clears it. */
  profile?: DocumentProfile | null;
  /** How much of the document's printed text its chunks hold (see shared/domain/coverage.ts). */
  coverage?: Coverage;
}

/** Per-document registration and status, in Redis (one hash per document plus an index). */
export interface StatusStore {
  register(input: { docId: string; sourceKey: string; version: string; force?: boolean }): Promise<RegisterOutcome>;
  /**
   * Applies only when (version, gen) is still the document's current registration and, with
   * `atStage`, only while the document is queued at or running that stage. True when applied.
   */
  update(docId: string, version: string, gen: number, u: StageUpdate, condition?: { atStage?: string }): Promise<boolean>;
  isCurrent(docId: string, version: string, gen: number): Promise<boolean>;
  /**
   * Marks the registration failed with `error`, but only while it is queued at or running `stage`
   * (a later stage, a settled state or a newer registration is left alone). True when applied.
   */
  failAt(docId: string, version: string, gen: number, stage: string, error: { code: string; message: string }): Promise<boolean>;
  /** Starts a deletion; returns its generation, or null when there is nothing to delete. */
  markDeleting(docId: string): Promise<number | null>;
  markDeleted(docId: string, gen: number): Promise<boolean>;
  get(docId: string): Promise<DocStatus | null>;
  list(): Promise<DocStatus[]>;
}

/**
 * A first generation: random below 2^40, so that it and every later one (each adds at most
 * 2^20) stay exact integers in Lua's and JSON's doubles for ~10^8 registrations of a document.
 */
const firstGen = () => randomInt(0, 2 ** 40);
/** A later generation's step: random, so two histories of one document (before and after a data loss) do not line up. */
const genStep = () => randomInt(1, 2 ** 20);

export function createStatusStore(redis: Redis, prefix: string, clock: () => Date = () => new Date()): StatusStore {
  const docKey = (docId: string) => `${prefix}:doc:${docId}`;
  const indexKey = `${prefix}:docs`;
  const now = () => clock().toISOString();

  const update: StatusStore['update'] = async (docId, version, gen, u, condition = {}) => {
    const fields: (string | number)[] = [];
    if (u.state) fields.push('state', u.state);
    if (u.stage) fields.push('stage', u.stage);
    if (u.progress !== undefined) fields.push('progress', Math.max(0, Math.min(100, Math.round(u.progress))));
    if (u.error !== undefined) fields.push('error_code', u.error?.code ?? '', 'error_message', u.error?.message ?? '');
    if (u.timing) fields.push(`t_${u.timing.stage}`, Math.round(u.timing.ms));
    if (u.pageCount !== undefined) fields.push('page_count', u.pageCount);
    if (u.chunkCount !== undefined) fields.push('chunk_count', u.chunkCount);
    if (u.warnings !== undefined) fields.push('warnings', u.warnings.length > 0 ? JSON.stringify(u.warnings) : '');
    if (u.profile !== undefined) fields.push('profile', u.profile ? JSON.stringify(u.profile) : '');
    if (u.coverage !== undefined) fields.push('coverage', JSON.stringify(u.coverage));
    const ok = await UPDATE.run(redis, [docKey(docId)], [version, String(gen), now(), condition.atStage ?? '', ...fields]);
    return Number(ok) === 1;
  };

  return {
    async register({ docId, sourceKey, version, force }) {
      const at = clock();
      const res = (await REGISTER.run(redis, [docKey(docId), indexKey], [
        docId,
        sourceKey,
        version,
        at.toISOString(),
        force ? '1' : '0',
        at.getTime(),
        firstGen(),
        genStep(),
      ])) as [string, number];
      return { action: res[0] === 'unchanged' ? 'unchanged' : 'registered', gen: Number(res[1]) };
    },
    update,
    async isCurrent(docId, version, gen) {
      const [v, g, state] = await redis.hmget(docKey(docId), 'version', 'gen', 'state');
      return v === version && g === String(gen) && state !== 'deleting' && state !== 'deleted';
    },
    async failAt(docId, version, gen, stage, error) {
      // Only while it still waits at or runs that stage: a job that dies after its stage's work
      // was handed on (its worker killed between enqueueing the next stage and completing) must
      // not fail a document that has moved on.
      return update(docId, version, gen, { state: 'failed', error }, { atStage: stage });
    },
    async markDeleting(docId) {
      const gen = Number(await MARK_DELETING.run(redis, [docKey(docId)], [now(), genStep()]));
      return gen < 0 ? null : gen;
    },
    async markDeleted(docId, gen) {
      return Number(await MARK_DELETED.run(redis, [docKey(docId)], [String(gen), now()])) === 1;
    },
    async get(docId) {
      return parseStatusHash(await redis.hgetall(docKey(docId)));
    },
    async list() {
      const ids = await redis.zrange(indexKey, '0', '-1');
      if (ids.length === 0) return [];
      const pipe = redis.pipeline();
      for (const id of ids) pipe.hgetall(docKey(id));
      const rows = (await pipe.exec()) ?? [];
      return rows
        .map(([err, h]) => (err ? null : parseStatusHash(h as Record<string, string>)))
        .filter((s): s is DocStatus => s !== null);
    },
  };
}
