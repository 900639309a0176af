import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../shared/config/config.ts';
import { ConfigSchema } from '../../shared/config/env-schema.ts';

describe('loadConfig', () => {
  it('has working defaults for the embedded setup', () => {
    const c = loadConfig({}, '/srv/q');
    expect(c.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(c.lancedbDir).toBe(path.resolve('/srv/q/.quarry/lancedb'));
    expect(c.watchDir).toBe(path.resolve('/srv/q/inbox'));
    expect(c.embedder).toMatchObject({ provider: 'hash', dimension: 512, model: 'hash-512' });
    // One child reads a whole document unless a deployment asks for page ranges in parallel.
    expect(c.extract.splitMinBytes).toBe(0);
    expect(loadConfig({ EXTRACT_SPLIT_MIN_BYTES: '1048576' }, '/srv/q').extract.splitMinBytes).toBe(1_048_576);
  });

  it('names every bad variable at once', () => {
    const bad = { REDIS_URL: 'http://x', EMBED_DIMENSION: 'many', WORKER_CONCURRENCY: '0', VECTOR_STORE: 'mongo' };
    let err: unknown;
    try {
      loadConfig(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    for (const name of Object.keys(bad)) expect(message).toContain(name);
    expect((err as ConfigError).code).toBe('INVALID_CONFIG');
  });

  it('requires a key or a base URL for the openai embedder', () => {
    expect(() => loadConfig({ EMBEDDER: 'openai' })).toThrow(/EMBED_API_KEY/);
    expect(loadConfig({ EMBEDDER: 'openai', EMBED_BASE_URL: 'http://127.0.0.1:11434/v1' }).embedder.model).toBe('text-embedding-3-small');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('.env.example documents every variable', () => {
    const example = readFileSync(path.resolve(import.meta.dirname, '../../.env.example'), 'utf8');
    for (const key of Object.keys(ConfigSchema.shape)) expect(example, key).toMatch(new RegExp(`^#?\\s*${key}=`, 'm'));
  });
});
