import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { noRedisMessage } from '../../apps/cli/app.ts';
import { ensureDevFolders, shutdownDeadlineMs } from '../../apps/cli/commands/run.ts';
import { devStatePath, readDevState, redisUrlFor, writeDevState, type DevState } from '../../apps/cli/dev-state.ts';
import { REPEAT_WINDOW_MS, repeatedSignal, watchesParent, WRAPPED_ENV } from '../../apps/cli/signals.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const tempDir = tempDirs('quarry-cli-lifecycle-');
const state = (over: Partial<DevState> = {}): DevState => ({
  pid: 4242,
  redisUrl: 'redis://127.0.0.1:41234',
  redisStarted: true,
  gatewayUrl: 'http://127.0.0.1:8080',
  startedAt: '2026-11-27T09:00:00.000Z',
  ...over,
});

describe('signals', () => {
  it('a signal within the repeat window is the same request (a Ctrl-C npm forwards again); a later one exits at once', () => {
    expect(repeatedSignal(0)).toBe('same-request');
    expect(repeatedSignal(REPEAT_WINDOW_MS - 1)).toBe('same-request');
    expect(repeatedSignal(REPEAT_WINDOW_MS)).toBe('exit-now');
  });

  it('watches its parent only under a foreground wrapper, never as PID 1 or started by a shell or supervisor', () => {
    expect(watchesParent({ npm_lifecycle_event: 'dev' }, 1234)).toBe(true);
    expect(watchesParent({ [WRAPPED_ENV]: '1' }, 1234)).toBe(true);
    expect(watchesParent({}, 1234)).toBe(false);
    expect(watchesParent({ npm_lifecycle_event: 'dev' }, 1)).toBe(false);
    expect(watchesParent({ npm_lifecycle_event: 'dev' }, 0)).toBe(false);
  });

  it('a stop may take the workers’ grace period and a margin', () => {
    expect(shutdownDeadlineMs({ worker: { shutdownGraceMs: 25_000 } as never })).toBeGreaterThan(25_000);
  });
});

describe('dev state', () => {
  it('is read back while its process lives, and ignored once it is gone or the file is not one', () => {
    const dir = tempDir();
    const forget = writeDevState(dir, state({ pid: process.pid }));
    expect(readDevState(dir)).toEqual(state({ pid: process.pid }));
    expect(readDevState(dir, () => false)).toBeNull();
    forget();
    expect(existsSync(devStatePath(dir))).toBe(false);
    expect(readDevState(dir)).toBeNull();
    writeFileSync(devStatePath(dir), '{"pid": "x"');
    expect(readDevState(dir, () => true)).toBeNull();
  });

  it('a stopping dev removes only its own file (a later dev may have replaced it)', () => {
    const dir = tempDir();
    const forgetFirst = writeDevState(dir, state({ pid: 1111 }));
    writeDevState(dir, state({ pid: 2222 }));
    forgetFirst();
    expect(readDevState(dir, () => true)?.pid).toBe(2222);
  });

  it('REDIS_URL wins; without it a running dev’s Redis; else the default', () => {
    const dev = state();
    expect(redisUrlFor({ REDIS_URL: 'redis://h:1' }, 'redis://h:1', dev)).toEqual({ url: 'redis://h:1', from: 'env' });
    expect(redisUrlFor({}, 'redis://127.0.0.1:6379', dev)).toEqual({ url: dev.redisUrl, from: 'dev' });
    expect(redisUrlFor({}, 'redis://127.0.0.1:6379', null)).toEqual({ url: 'redis://127.0.0.1:6379', from: 'default' });
  });
});

describe('a CLI that finds no Redis', () => {
  it('names the URL and where it came from, and blames a missing redis-server only when it is missing', () => {
    const installed = noRedisMessage('redis://127.0.0.1:6379', 'the default REDIS_URL', true);
    expect(installed).toContain('no Redis answers at redis://127.0.0.1:6379 (from the default REDIS_URL)');
    expect(installed).toContain('npm run dev');
    expect(installed).not.toMatch(/not found|install/i);
    expect(noRedisMessage('redis://127.0.0.1:6379', 'REDIS_URL', false)).toMatch(/redis-server was not found[\s\S]*apt-get install/);
  });
});

describe('dev folders', () => {
  it('creates a missing data directory and watched folder and says so; leaves existing ones alone', () => {
    const dir = tempDir();
    const said: string[] = [];
    const config = { dataDir: path.join(dir, 'data'), watchDir: path.join(dir, 'inbox'), watchBucket: null };
    ensureDevFolders(config, (l) => said.push(l));
    expect(existsSync(config.dataDir) && existsSync(config.watchDir)).toBe(true);
    expect(said).toHaveLength(2);
    expect(said[1]).toMatch(/created .*inbox \(watched folder: drop PDFs here\)/);
    said.length = 0;
    ensureDevFolders(config, (l) => said.push(l));
    expect(said).toEqual([]);
  });

  it('with a watched bucket, creates no folder to watch', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'data'));
    const said: string[] = [];
    ensureDevFolders({ dataDir: path.join(dir, 'data'), watchDir: path.join(dir, 'inbox'), watchBucket: { location: { bucket: 'b', prefix: '' }, pollMs: 1000 } as never }, (l) => said.push(l));
    expect(existsSync(path.join(dir, 'inbox'))).toBe(false);
    expect(said).toEqual([]);
  });
});
