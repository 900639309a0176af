/**
 * What lets Quarry run compiled and start fast: the extraction child's entry and flags follow the
 * module that forks it (`.ts` + tsx from sources, `.js` without tsx compiled), the CLI loads only
 * the command group it runs, the vector store opens on first use, and the package root is found
 * from either tree.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, groupFor, registerSummaries } from '../../apps/cli/command-table.ts';
import { COMMAND_SUMMARIES } from '../../apps/cli/command-summaries.ts';
import { median, perWorkerLayout } from '../../bench/coldstart.ts';
import { packageRoot } from '../../shared/config/package-root.ts';
import { childEntryPath, childEnv, childExecArgv, needsTsLoader } from '../../shared/pdf/child-bootstrap.ts';
import { createLazyVectorStore } from '../../shared/store/lazy-store.ts';
import type { VectorStore } from '../../shared/store/vector-store.ts';

describe('extraction child entry', () => {
  it('is the .ts entry with tsx from sources and the .js entry without tsx once compiled', () => {
    const fromSources = childEntryPath(pathToFileURL('/app/shared/pdf/extraction-pool.ts').href, 'extract-child-entry');
    const compiled = childEntryPath(pathToFileURL('/app/dist/shared/pdf/extraction-pool.js').href, 'extract-child-entry');
    expect(fromSources).toBe(path.join('/app/shared/pdf', 'extract-child-entry.ts'));
    expect(compiled).toBe(path.join('/app/dist/shared/pdf', 'extract-child-entry.js'));
    expect(needsTsLoader(fromSources)).toBe(true);
    expect(needsTsLoader(compiled)).toBe(false);
    expect(childExecArgv(256, fromSources)).toEqual(['--import', expect.stringMatching(/^file:.*tsx/), '--max-old-space-size=256', '--max-semi-space-size=4']);
    expect(childExecArgv(256, compiled)).toEqual(['--max-old-space-size=256', '--max-semi-space-size=4']);
  });

  it("runs without the image's compile cache, with the parent's other variables and its own", () => {
    const parent = { PATH: '/usr/bin', NODE_COMPILE_CACHE: '/app/.node-compile-cache', REDIS_URL: 'redis://r:6379' };
    const env = childEnv(parent, { QUARRY_EXTRACT_GUARDED: '1' });
    expect(env).toEqual({ PATH: '/usr/bin', REDIS_URL: 'redis://r:6379', QUARRY_EXTRACT_GUARDED: '1' });
    expect(parent.NODE_COMPILE_CACHE, 'the parent environment is left as it was').toBe('/app/.node-compile-cache');
    expect(childEnv({ NODE_COMPILE_CACHE: '/c' })).toEqual({});
  });
});

describe('CLI command groups', () => {
  it('each group registers exactly the top-level commands it names', async () => {
    for (const group of COMMAND_GROUPS) {
      const program = new Command('quarry');
      (await group.load())(program);
      expect(program.commands.map((c) => c.name()).sort(), group.names.join(',')).toEqual([...group.names].sort());
    }
  }, 60_000);

  it('loads only the named group (also after `help`), and none for help or an unknown command', () => {
    expect(groupFor(['workers', 'start', '--only', 'chunk'])?.names).toEqual(['dev', 'workers', 'gateway', 'watch']);
    expect(groupFor(['mcp'])?.names).toEqual(['mcp']);
    expect(groupFor(['help', 'ingest'])?.names).toEqual(['ingest']);
    for (const args of [[], ['--help'], ['help'], ['wrokers']]) expect(groupFor(args)).toBeNull();
  });

  it('the summaries name every command of every group, with the description its module registers', async () => {
    const grouped = COMMAND_GROUPS.flatMap((g) => g.names).sort();
    expect(Object.keys(COMMAND_SUMMARIES).sort()).toEqual(grouped);
    const summaries = new Command('quarry');
    registerSummaries(summaries);
    for (const group of COMMAND_GROUPS) {
      const program = new Command('quarry');
      (await group.load())(program);
      for (const cmd of program.commands) {
        const summary = summaries.commands.find((c) => c.name() === cmd.name());
        expect(summary?.description(), cmd.name()).toBe(cmd.description());
        expect(summary?.registeredArguments.map((a) => a.name()), cmd.name()).toEqual(cmd.registeredArguments.map((a) => a.name()));
      }
    }
  }, 60_000);
});

describe('lazy vector store', () => {
  function fakeStore(calls: string[]): VectorStore {
    const store: Partial<VectorStore> = {
      countChunks: async () => {
        calls.push('count');
        return 7;
      },
      close: async () => {
        calls.push('close');
      },
    };
    return store as VectorStore;
  }

  it('opens on the first call, once, and closes only what it opened', async () => {
    const calls: string[] = [];
    let opens = 0;
    const lazy = createLazyVectorStore(async () => {
      opens++;
      return fakeStore(calls);
    });
    expect(lazy.opened).toBe(false);
    expect(await Promise.all([lazy.countChunks(), lazy.countChunks()])).toEqual([7, 7]);
    expect(opens).toBe(1);
    await lazy.close();
    expect(calls).toEqual(['count', 'count', 'close']);

    const unused = createLazyVectorStore(async () => {
      opens++;
      return fakeStore(calls);
    });
    await unused.close();
    expect(opens).toBe(1);
  });

  it('tries again after a failed opening', async () => {
    let attempts = 0;
    const lazy = createLazyVectorStore(async () => {
      if (++attempts === 1) throw new Error('down');
      return fakeStore([]);
    });
    await expect(lazy.countChunks()).rejects.toThrow('down');
    expect(await lazy.countChunks()).toBe(7);
  });
});

describe('package root', () => {
  it('is found from the sources and from the compiled tree', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-root-'));
    try {
      writeFileSync(path.join(dir, 'package.json'), '{}');
      mkdirSync(path.join(dir, 'apps/cli/commands'), { recursive: true });
      mkdirSync(path.join(dir, 'dist/apps/cli/commands'), { recursive: true });
      expect(packageRoot(path.join(dir, 'apps/cli/commands'))).toBe(dir);
      expect(packageRoot(path.join(dir, 'dist/apps/cli/commands'))).toBe(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cold-start bench', () => {
  it('starts one process per worker plus the gateway, each on its own health port', () => {
    const layout = perWorkerLayout(['extract', 'chunk']);
    expect(layout).toEqual([
      { name: 'extract', args: ['workers', 'start', '--only', 'extract'], portVar: 'HEALTH_PORT' },
      { name: 'chunk', args: ['workers', 'start', '--only', 'chunk'], portVar: 'HEALTH_PORT' },
      { name: 'gateway', args: ['gateway'], portVar: 'GATEWAY_PORT' },
    ]);
    expect(median([300, 100, 200])).toBe(200);
    expect(median([100, 200])).toBe(150);
  });
});
