import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative module specifiers a TypeScript source imports or re-exports (type-only ones too). */
export function parseImports(source: string): string[] {
  const stripped = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of stripped.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (spec?.startsWith('.')) out.push(spec);
  }
  return out;
}

/** Every .ts file below `dirs` (relative to root), skipping node_modules. */
export function listSources(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  return out.sort();
}

/** file → files it imports, all relative to root. */
export function buildGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = parseImports(readFileSync(path.join(root, f), 'utf8')).map((spec) =>
      path.posix.normalize(path.posix.join(path.posix.dirname(f), spec)),
    );
    graph.set(f, deps);
  }
  return graph;
}

/** Import cycles (each as the list of files around it), found by depth-first search. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Imports that break the layering: shared/ may not import apps/ or workers/; queues/ may not import them either. */
export function layerViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const rules: [RegExp, RegExp][] = [
    [/^shared\//, /^(apps|workers)\//],
    [/^queues\//, /^(apps|workers)\//],
    [/^workers\//, /^apps\//],
  ];
  const out: string[] = [];
  for (const [from, deps] of graph) {
    for (const dep of deps) {
      for (const [src, forbidden] of rules) if (src.test(from) && forbidden.test(dep)) out.push(`${from} → ${dep}`);
    }
  }
  return out;
}
