import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { buildGraph, findCycles, layerViolations, listSources, parseImports } from '../helpers/import-graph.ts';
import { durationAssertions } from '../helpers/timing-asserts.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('dependency rules', () => {
  const files = listSources(root, ['apps', 'workers', 'queues', 'shared']);
  const graph = buildGraph(root, files);

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files).toContain('shared/errors.ts');
  });

  it('shared/ and queues/ import nothing from apps/ or workers/; workers/ nothing from apps/', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(findCycles(graph)).toEqual([]);
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
});
