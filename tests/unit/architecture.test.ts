import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGraph, findCycles, layerViolations, listSources, parseImports } from '../helpers/import-graph.ts';

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
