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

/**
 * Imports that break the layering: shared/ imports nothing from apps/, workers/ or core/ (it is the
 * floor everything stands on); queues/ nothing from apps/, workers/ or core/ either; workers/
 * nothing from apps/; core/ (the use cases every face shares) only shared/ and queues/, never an
 * app or a worker, so any face can call it without pulling in another.
 */
export function layerViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const rules: [RegExp, RegExp][] = [
    [/^shared\//, /^(apps|workers|core)\//],
    [/^queues\//, /^(apps|workers|core)\//],
    [/^workers\//, /^apps\//],
    [/^core\//, /^(apps|workers)\//],
  ];
  const out: string[] = [];
  for (const [from, deps] of graph) {
    for (const dep of deps) {
      for (const [src, forbidden] of rules) if (src.test(from) && forbidden.test(dep)) out.push(`${from} → ${dep}`);
    }
  }
  return out;
}

/** An app file allowed to import another app: a process that starts that app beside its own. */
export interface CompositionRoot {
  file: string;
  /** The other apps' modules it may import (their start functions), nothing else of them. */
  may: RegExp;
  why: string;
}

/**
 * The only app→app imports there are. Each starts another app in the same process, which cannot
 * be done from below (core/ may not import apps/); everything they share otherwise is in core/.
 */
export const COMPOSITION_ROOTS: readonly CompositionRoot[] = [
  {
    file: 'apps/cli/service.ts',
    may: /^apps\/(watcher\/(local-watcher|bucket-watcher|leader-lease)|gateway\/start-gateway)\.ts$/,
    why: 'startService runs the workers, the watcher (under its lease) and the gateway in one process: quarry dev, quarry watch',
  },
  { file: 'apps/cli/commands/demo.ts', may: /^apps\/watcher\/local-watcher\.ts$/, why: 'quarry demo watches the example folder in its own process' },
  { file: 'apps/cli/commands/mcp.ts', may: /^apps\/mcp\/server\.ts$/, why: 'quarry mcp serves the MCP face over stdio' },
  { file: 'apps/gateway/server.ts', may: /^apps\/mcp\/http\.ts$/, why: 'the gateway serves the MCP face at /mcp, on its port and behind its key check' },
];

/** The app a file belongs to (`apps/<app>/…`), or null outside apps/. */
export const appOf = (file: string): string | null => /^apps\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Imports from one app into another (apps/cli, gateway, mcp, watcher, web are separate apps), but for the composition roots'. */
export function appViolations(graph: ReadonlyMap<string, readonly string[]>, roots: readonly CompositionRoot[] = COMPOSITION_ROOTS): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    const app = appOf(from);
    if (!app) continue;
    for (const dep of deps) {
      const other = appOf(dep);
      if (!other || other === app) continue;
      if (roots.some((r) => r.file === from && r.may.test(dep))) continue;
      out.push(`${from} → ${dep}`);
    }
  }
  return out;
}
