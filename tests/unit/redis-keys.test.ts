import { describe, expect, it } from 'vitest';
import * as keys from '../../shared/redis/keys.ts';

// These strings are data already in Redis: a key family renamed here would lose what is stored
// under the old name. A change to any of them is a migration, not a refactor.
describe('the Redis keyspace (shared/redis/keys.ts)', () => {
  const p = 'quarry';

  it('pins every key family to its exact format', () => {
    expect(keys.statusKeys(p).record('doc-1')).toBe('quarry:doc:doc-1');
    expect(keys.statusKeys(p).index).toBe('quarry:docs');
    expect(keys.docLockKey(p, 'doc-1')).toBe('quarry:lock:doc:doc-1');
    expect(keys.memoryKeys(p).stats('0b7c6a4e-1f2d-5e3c-9a8b-7c6d5e4f3a2b')).toBe('quarry:mem:0b7c6a4e-1f2d-5e3c-9a8b-7c6d5e4f3a2b');
    expect(keys.memoryKeys(p).index).toBe('quarry:mem:index');
    expect(keys.memoryKeys(p).run('run-1')).toBe('quarry:mem:run:run-1');
    expect(keys.traceKeys(p)).toEqual({ valuePrefix: 'quarry:trace:', indexKey: 'quarry:traces:index' });
    expect(keys.runContextKeys(p)).toEqual({ valuePrefix: 'quarry:runctx:', indexKey: 'quarry:runctxs:index' });
    expect(keys.runStreamKey(p, 'run-1')).toBe('quarry:runstream:run-1');
    expect(keys.embeddingCacheKey(p, 'hash-256:ab12')).toBe('quarry:emb:hash-256:ab12');
    expect(keys.watcherLeaseKey(p)).toBe('quarry:watcher:leader');
    expect(keys.bucketCursorKey(p, 'docs', 'in/')).toBe('quarry:bucket-cursor:docs/in/');
    expect(keys.bucketCursorKey(p, 'docs', '')).toBe('quarry:bucket-cursor:docs/');
    expect(keys.rateLimitNamespace(p)).toBe('quarry:ratelimit:');
    expect(keys.everyKeyPattern(p)).toBe('quarry:*');
  });

  it('pins them all: a new family gets a line above', () => {
    const families = Object.entries(keys)
      .filter(([, v]) => typeof v === 'function')
      .map(([name]) => name)
      .sort();
    expect(families).toEqual([
      'bucketCursorKey',
      'docLockKey',
      'embeddingCacheKey',
      'everyKeyPattern',
      'memoryKeys',
      'rateLimitNamespace',
      'runContextKeys',
      'runStreamKey',
      'statusKeys',
      'traceKeys',
      'watcherLeaseKey',
    ]);
  });

  it('every key is under the prefix', () => {
    const q = 'other-prefix';
    const all = [
      keys.statusKeys(q).record('d'),
      keys.statusKeys(q).index,
      keys.docLockKey(q, 'd'),
      keys.memoryKeys(q).stats('c'),
      keys.memoryKeys(q).index,
      keys.memoryKeys(q).run('r'),
      keys.traceKeys(q).valuePrefix,
      keys.traceKeys(q).indexKey,
      keys.runContextKeys(q).valuePrefix,
      keys.runContextKeys(q).indexKey,
      keys.runStreamKey(q, 'r'),
      keys.embeddingCacheKey(q, 'm:h'),
      keys.watcherLeaseKey(q),
      keys.bucketCursorKey(q, 'b', ''),
      keys.rateLimitNamespace(q),
      keys.everyKeyPattern(q),
    ];
    for (const k of all) expect(k.startsWith(`${q}:`), k).toBe(true);
  });
});
