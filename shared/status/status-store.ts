import { randomInt } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Coverage, DocumentProfile } from '../domain/index.ts';
import { statusKeys } from '../redis/index.ts';
import { parseStatusHash, type DocState, type DocStatus, type StatusWarning } from './doc-status.ts';
import { MARK_DELETED, MARK_DELETING, REGISTER, UPDATE } from './status-scripts.ts';

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
  const { record: docKey, index: indexKey } = statusKeys(prefix);
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
    return UPDATE.run(redis, [docKey(docId)], [version, String(gen), now(), condition.atStage ?? '', ...fields]);
  };

  return {
    async register({ docId, sourceKey, version, force }) {
      const at = clock();
      return REGISTER.run(redis, [docKey(docId), indexKey], [docId, sourceKey, version, at.toISOString(), force ? '1' : '0', at.getTime(), firstGen(), genStep()]);
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
      return MARK_DELETING.run(redis, [docKey(docId)], [now(), genStep()]);
    },
    async markDeleted(docId, gen) {
      return MARK_DELETED.run(redis, [docKey(docId)], [String(gen), now()]);
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
