import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import {
  appViolations,
  buildGraph,
  COMPOSITION_ROOTS,
  entryViolations,
  FACE_ROOTS,
  faceViolations,
  featureFolderOf,
  findCycles,
  layerViolations,
  listFeatureFolders,
  listSources,
  openingNote,
  parseImports,
  staleRoots,
} from '../helpers/import-graph.ts';
import { durationAssertions } from '../helpers/timing-asserts.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('dependency rules', () => {
  const files = listSources(root, ['apps', 'core', 'workers', 'queues', 'shared', 'eval', 'bench']);
  const graph = buildGraph(root, files);

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files).toContain('shared/errors.ts');
    expect(files).toContain('core/schemas.ts');
    expect(files).toContain('apps/web/src/app.tsx');
  });

  it('shared/ and queues/ import nothing from apps/, workers/ or core/; workers/ nothing from apps/; core/ only shared/ and queues/', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('no app imports another app, but a composition root the app it starts', () => {
    expect(appViolations(graph)).toEqual([]);
    // Each exception names a file that exists and still needs it: a stale one is removed, not kept.
    expect(staleRoots(graph, COMPOSITION_ROOTS)).toEqual([]);
  });

  it('faces import only core/, shared/ and their own app, but a face root the workers it runs', () => {
    expect(faceViolations(graph)).toEqual([]);
    expect(staleRoots(graph, FACE_ROOTS)).toEqual([]);
  });

  it('a feature folder is entered only through its index.ts (tests, eval and bench may reach in)', () => {
    expect(entryViolations(graph)).toEqual([]);
  });

  it('has no import cycles (apps, core, workers, queues, shared, eval and bench)', () => {
    const cycles = findCycles(graph).map((c) => c.join(' → '));
    expect(cycles).toEqual([]);
  });
});

describe('feature folders', () => {
  it('each has an index.ts that opens with a note: what it owns, what it may import, its entry points', () => {
    const folders = listFeatureFolders(root);
    expect(folders).toContain('shared/store');
    expect(folders).toContain('apps/web');
    const without = folders.filter((f) => {
      const index = path.join(root, f, 'index.ts');
      return !existsSync(index) || openingNote(readFileSync(index, 'utf8')) === null;
    });
    expect(without).toEqual([]);
  });

  it('reads a note only when the file opens with a block of two lines or more', () => {
    expect(openingNote('/**\n * Owns the store.\n * Entry point: createVectorStore.\n */\nexport {};\n')).toEqual(['Owns the store.', 'Entry point: createVectorStore.']);
    expect(openingNote('/** One line. */\nexport {};\n')).toBeNull();
    expect(openingNote("import { a } from './a.ts';\n/**\n * Late.\n * Note.\n */\n")).toBeNull();
    expect(openingNote('// a line comment\n// and another\nexport {};\n')).toBeNull();
  });
});

describe('Redis: one script runner, one keyspace', () => {
  const files = listSources(root, ['apps', 'core', 'workers', 'queues', 'shared', 'eval', 'bench']);
  const hits = (pattern: RegExp, allowed: (file: string) => boolean) =>
    files.filter((f) => !allowed(f) && pattern.test(readFileSync(path.join(root, f), 'utf8')));

  it('only shared/redis/lua.ts sends EVAL or EVALSHA (every script is a defineLuaScript)', () => {
    expect(hits(/\.(eval|evalsha|evalsha_ro|eval_ro|defineCommand)\(/, (f) => f === 'shared/redis/lua.ts')).toEqual([]);
  });

  it('Lua source lives only in .lua files', () => {
    expect(hits(/redis\.(call|pcall)\(/, () => false)).toEqual([]);
  });

  it('every .lua file is read by luaSource beside it, and every file luaSource names exists', () => {
    const luaFiles = ['apps', 'core', 'workers', 'queues', 'shared'].flatMap((d) =>
      readdirSync(path.join(root, d), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.lua'))
        .map((f) => `${d}/${f.split(path.sep).join('/')}`),
    );
    expect(luaFiles).toContain('shared/status/status-register.lua');
    const named = new Set<string>();
    const outsideLoader: string[] = [];
    for (const f of files) {
      for (const line of readFileSync(path.join(root, f), 'utf8').split('\n')) {
        const urls = [...line.matchAll(/new URL\('(\.\/[\w.-]+\.lua)', import\.meta\.url\)/g)].map((m) => path.posix.join(path.posix.dirname(f), m[1] ?? ''));
        if (urls.length && !line.includes('luaSource(')) outsideLoader.push(f);
        for (const u of urls) named.add(u);
      }
    }
    expect(outsideLoader, 'a .lua file read other than by luaSource').toEqual([]);
    expect([...named].filter((u) => !luaFiles.includes(u)), 'named but missing').toEqual([]);
    expect(luaFiles.filter((f) => !named.has(f)), 'never read').toEqual([]);
  });

  it('only shared/redis/keys.ts spells a key under the prefix', () => {
    expect(hits(/\$\{[\w.]*prefix\}:/i, (f) => f === 'shared/redis/keys.ts')).toEqual([]);
  });
});

describe('tests that hold on a busy machine', () => {
  it('no test compares a measured duration with a number (speed is for npm run bench)', () => {
    const testFiles = readdirSync(path.join(root, 'tests'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const found = testFiles.flatMap((f) => durationAssertions(readFileSync(path.join(root, 'tests', f), 'utf8')).map((hit) => `tests/${f}:${hit}`));
    expect(found).toEqual([]);
  });

  it('the check finds the obvious forms and leaves counts and scores alone', () => {
    const hits = durationAssertions(
      [
        'expect(ms).toBeLessThan(5000);',
        'expect(ready.ms).toBeLessThan(1000);',
        'expect(res.ms, p).toBeLessThan(2000);',
        'expect(Date.now() - t0).toBeLessThan(10_000);',
        'expect(performance.now() - started).toBeLessThanOrEqual(50);',
        'expect(elapsed).toBeLessThan(60_000);',
        'expect(peak).toBeLessThan(1.5 * GB);',
        'expect(o.terms.prior).toBeLessThanOrEqual(0.15);',
        'expect(chunks.length).toBeGreaterThan(3);',
        'for (const n of nodes) expect(n.ms).toBeGreaterThanOrEqual(0);',
      ].join('\n'),
    );
    expect(hits.map((h) => Number(h.split(':')[0]))).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('the checker itself', () => {
  it('parses static, type-only, re-export and dynamic imports, ignoring packages and comments', () => {
    const src = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export * from './c.ts';",
      "const d = await import('./d.ts');",
      "import { z } from 'zod';",
      "// import { e } from './e.ts';",
      "import {\n  f,\n  g,\n} from './fg.ts';",
    ].join('\n');
    expect(parseImports(src)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts', './fg.ts']);
  });

  it('reports a cycle and a layering violation', () => {
    const g = new Map([
      ['shared/a.ts', ['shared/b.ts']],
      ['shared/b.ts', ['shared/a.ts', 'workers/x.ts']],
      ['workers/x.ts', []],
    ]);
    expect(findCycles(g)).toEqual([['shared/a.ts', 'shared/b.ts', 'shared/a.ts']]);
    expect(layerViolations(g)).toEqual(['shared/b.ts → workers/x.ts']);
  });

  it('reports an app importing another app', () => {
    const g = new Map([
      ['apps/gateway/routes/search.ts', ['apps/mcp/handlers.ts', 'apps/gateway/validate.ts', 'core/search.ts']],
      ['apps/mcp/handlers.ts', ['apps/cli/commands/search.ts']],
      ['apps/web/src/api.ts', ['apps/gateway/types.ts']],
    ]);
    expect(appViolations(g)).toEqual([
      'apps/gateway/routes/search.ts → apps/mcp/handlers.ts',
      'apps/mcp/handlers.ts → apps/cli/commands/search.ts',
      'apps/web/src/api.ts → apps/gateway/types.ts',
    ]);
  });

  it('lets a composition root import only the app modules it is allowed', () => {
    const roots = [{ file: 'apps/cli/service.ts', may: /^apps\/gateway\/start-gateway\.ts$/, why: 'starts the gateway' }];
    const g = new Map([
      ['apps/cli/service.ts', ['apps/gateway/start-gateway.ts', 'apps/gateway/http-errors.ts']],
      ['apps/cli/commands/search.ts', ['apps/gateway/start-gateway.ts']],
    ]);
    expect(appViolations(g, roots)).toEqual(['apps/cli/service.ts → apps/gateway/http-errors.ts', 'apps/cli/commands/search.ts → apps/gateway/start-gateway.ts']);
  });

  it('reports a face importing queues/ or workers/, but not a face root the workers it may', () => {
    const roots = [{ file: 'apps/cli/service.ts', may: /^workers\/runtime\/start-workers\.ts$/, why: 'starts workers' }];
    const g = new Map([
      ['apps/gateway/routes/query.ts', ['queues/agent.queues.ts', 'core/ask/agent-runs.ts', 'shared/errors.ts', 'apps/gateway/sse.ts']],
      ['apps/gateway/start-gateway.ts', ['workers/runtime/ports.ts']],
      ['apps/cli/service.ts', ['workers/runtime/start-workers.ts', 'workers/compose.ts', 'apps/gateway/start-gateway.ts']],
      ['apps/web/src/api.ts', ['shared/domain/table.ts', 'eval/run.ts']],
      ['core/search.ts', ['queues/agent.queues.ts']],
    ]);
    expect(faceViolations(g, roots)).toEqual([
      'apps/gateway/routes/query.ts → queues/agent.queues.ts',
      'apps/gateway/start-gateway.ts → workers/runtime/ports.ts',
      'apps/cli/service.ts → workers/compose.ts',
      'apps/web/src/api.ts → eval/run.ts',
    ]);
  });

  it('calls a root stale when it imports nothing it is allowed, or is gone', () => {
    const roots = [
      { file: 'apps/cli/service.ts', may: /^workers\/runtime\/start-workers\.ts$/, why: 'starts workers' },
      { file: 'apps/cli/commands/query.ts', may: /^workers\/agent\/agent\.worker\.ts$/, why: 'runs the agent' },
      { file: 'apps/cli/commands/gone.ts', may: /^workers\//, why: 'was removed' },
    ];
    const g = new Map([
      ['apps/cli/service.ts', ['workers/runtime/start-workers.ts']],
      ['apps/cli/commands/query.ts', ['core/ask/ask.ts']],
    ]);
    expect(staleRoots(g, roots)).toEqual(['apps/cli/commands/query.ts', 'apps/cli/commands/gone.ts']);
  });

  it('tells the feature folders: direct subfolders of shared/, core/, workers/ and apps/', () => {
    expect(featureFolderOf('shared/store/filter.ts')).toBe('shared/store');
    expect(featureFolderOf('shared/store/lancedb/lancedb-store.ts')).toBe('shared/store');
    expect(featureFolderOf('apps/gateway/routes/query.ts')).toBe('apps/gateway');
    expect(featureFolderOf('workers/upsert/index.ts')).toBe('workers/upsert');
    expect(featureFolderOf('shared/errors.ts')).toBeNull();
    expect(featureFolderOf('core/search.ts')).toBeNull();
    expect(featureFolderOf('workers/index.ts')).toBeNull();
    expect(featureFolderOf('queues/agent.queues.ts')).toBeNull();
  });

  it('reports an import into a feature folder past its index.ts, but not a sibling, a top-level file or a test', () => {
    const g = new Map([
      ['core/search.ts', ['shared/store/filter.ts', 'shared/store/index.ts', 'shared/errors.ts']],
      ['shared/agent/graph.ts', ['shared/agent/state.ts', 'shared/retrieval/index.ts', 'shared/store/lancedb/lancedb-store.ts']],
      ['shared/store/index.ts', ['shared/store/lancedb/lancedb-store.ts', 'shared/store/vector-store.ts']],
      ['workers/index.ts', ['workers/chunk/chunk.worker.ts', 'workers/upsert/index.ts']],
      ['queues/agent.queues.ts', ['shared/runs/answer.ts', 'queues/define-queue.ts']],
      ['apps/cli/service.ts', ['apps/gateway/start-gateway.ts', 'apps/cli/app.ts']],
      ['tests/unit/filter.test.ts', ['shared/store/filter.ts']],
      ['eval/run.ts', ['shared/agent/graph.ts']],
    ]);
    expect(entryViolations(g)).toEqual([
      'core/search.ts → shared/store/filter.ts',
      'shared/agent/graph.ts → shared/store/lancedb/lancedb-store.ts',
      'workers/index.ts → workers/chunk/chunk.worker.ts',
      'queues/agent.queues.ts → shared/runs/answer.ts',
      'apps/cli/service.ts → apps/gateway/start-gateway.ts',
    ]);
  });

  it('reports core/ importing an app or a worker, and shared/ or queues/ importing core/', () => {
    const g = new Map([
      ['core/search.ts', ['shared/store/filter.ts', 'queues/agent.queues.ts', 'apps/mcp/schemas.ts']],
      ['core/documents/retry.ts', ['workers/runtime/ports.ts']],
      ['shared/retrieval/routed-search.ts', ['core/schemas.ts']],
      ['queues/agent.queues.ts', ['core/schemas.ts']],
    ]);
    expect(layerViolations(g)).toEqual([
      'core/search.ts → apps/mcp/schemas.ts',
      'core/documents/retry.ts → workers/runtime/ports.ts',
      'shared/retrieval/routed-search.ts → core/schemas.ts',
      'queues/agent.queues.ts → core/schemas.ts',
    ]);
  });

  it('finds cycles through core/, eval/ and bench/ as anywhere else', () => {
    const g = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts']],
      ['eval/run.ts', ['bench/util.ts']],
      ['bench/util.ts', ['eval/run.ts']],
    ]);
    expect(findCycles(g)).toEqual([
      ['core/a.ts', 'core/b.ts', 'core/a.ts'],
      ['eval/run.ts', 'bench/util.ts', 'eval/run.ts'],
    ]);
  });

  it('lists the sources of core/, eval/ and bench/', () => {
    const files = listSources(root, ['core', 'eval', 'bench']);
    expect(files.some((f) => f.startsWith('core/'))).toBe(true);
    expect(files.some((f) => f.startsWith('eval/'))).toBe(true);
    expect(files.some((f) => f.startsWith('bench/'))).toBe(true);
  });
});
