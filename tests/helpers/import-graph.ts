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

/** Every .ts and .tsx file below `dirs` (relative to root), skipping node_modules. */
export function listSources(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name)) out.push(path.relative(root, full).split(path.sep).join('/'));
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
    may: /^apps\/(watcher|gateway)\/index\.ts$/,
    why: 'startService runs the workers, the watcher (under its lease) and the gateway in one process: quarry dev, quarry watch',
  },
  { file: 'apps/cli/commands/demo.ts', may: /^apps\/watcher\/index\.ts$/, why: 'quarry demo watches the example folder in its own process' },
  { file: 'apps/cli/commands/mcp.ts', may: /^apps\/mcp\/index\.ts$/, why: 'quarry mcp serves the MCP face over stdio' },
  { file: 'apps/gateway/server.ts', may: /^apps\/mcp\/index\.ts$/, why: 'the gateway serves the MCP face at /mcp, on its port and behind its key check' },
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

/**
 * Face files that may import workers/: each runs workers (or a stage) in its own process, which a
 * use case of core/ cannot do (core/ may not import workers/). Everything else a face needs of the
 * queues comes through core/queues.ts.
 */
export const FACE_ROOTS: readonly CompositionRoot[] = [
  { file: 'apps/cli/app.ts', may: /^workers\/(compose|runtime\/index)\.ts$/, why: 'opens a command\'s ports: createPorts composes every adapter of the process' },
  {
    file: 'apps/cli/service.ts',
    may: /^workers\/(compose|runtime\/index)\.ts$/,
    why: 'startService runs the stage workers, their health endpoint and the reconciler in its process: quarry dev, quarry workers start, quarry watch',
  },
  { file: 'apps/cli/reconcile.ts', may: /^workers\/runtime\/index\.ts$/, why: 'the reconciler of a service that holds the watcher lease, with the watched folder\'s rescan' },
  { file: 'apps/cli/commands/run.ts', may: /^workers\/index\.ts$/, why: 'quarry dev and quarry workers start --only pick the workers the service runs' },
  { file: 'apps/cli/commands/demo.ts', may: /^workers\/(index|agent\/index|runtime\/index)\.ts$/, why: 'quarry demo runs the ingest workers and the agent in its process' },
  { file: 'apps/cli/commands/ingest.ts', may: /^workers\/(index|runtime\/index)\.ts$/, why: 'quarry ingest <stage> replays one stage\'s worker once, in its process' },
  { file: 'apps/cli/commands/query.ts', may: /^workers\/(agent|runtime)\/index\.ts$/, why: 'quarry query runs the agent once, in its process' },
  { file: 'apps/cli/commands/facets.ts', may: /^workers\/(facet-rebuild|runtime)\/index\.ts$/, why: 'quarry facets rebuild-vectors runs the facet rebuild once, in its process' },
  { file: 'apps/cli/commands/memory.ts', may: /^workers\/(memory-decay|runtime)\/index\.ts$/, why: 'quarry memory decay runs the decay once, in its process' },
  { file: 'apps/cli/commands/mcp.ts', may: /^workers\/(agent|runtime)\/index\.ts$/, why: 'quarry mcp --agent starts an agent worker beside the MCP server' },
  { file: 'apps/cli/commands/reindex.ts', may: /^workers\/(upsert|runtime)\/index\.ts$/, why: 'quarry reindex turns stored artifacts into rows with the upsert stage' },
];

/**
 * Imports from a face (apps/cli, gateway, mcp, watcher, web) into anything but core/ (the use
 * cases), shared/ (the domain library) and apps/ (another app is appViolations' business), but for
 * the face roots' allowed imports: a face never names a queue module or a worker itself.
 */
export function faceViolations(graph: ReadonlyMap<string, readonly string[]>, roots: readonly CompositionRoot[] = FACE_ROOTS): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    if (!appOf(from)) continue;
    for (const dep of deps) {
      if (/^(core|shared|apps)\//.test(dep)) continue;
      if (roots.some((r) => r.file === from && r.may.test(dep))) continue;
      out.push(`${from} → ${dep}`);
    }
  }
  return out;
}

/** Roots that no longer import anything they are allowed (or no longer exist): stale exceptions, to be removed. */
export function staleRoots(graph: ReadonlyMap<string, readonly string[]>, roots: readonly CompositionRoot[]): string[] {
  return roots.filter((r) => !graph.get(r.file)?.some((d) => r.may.test(d))).map((r) => r.file);
}

/**
 * The feature folder a file belongs to: a direct subfolder of shared/, core/, workers/ or apps/
 * (`shared/store`, `core/ask`, `workers/upsert`, `apps/gateway`), deeper folders being internal to
 * theirs (`shared/store/lancedb/` is in `shared/store`); null for a file in no feature folder
 * (`shared/errors.ts`, `core/search.ts`, `workers/index.ts`, every `queues/*.ts`).
 */
export const featureFolderOf = (file: string): string | null => /^((?:shared|core|workers|apps)\/[^/]+)\//.exec(file)?.[1] ?? null;

/**
 * Imports that enter a feature folder from outside it other than through its `index.ts` (type-only
 * and dynamic imports included): a folder's index is the list of what the rest of the code may use
 * of it, and its other files are its own business. Files inside a folder import their siblings
 * directly. Only imports from apps/, core/, workers/, queues/ and shared/ are held to it: tests/,
 * eval/, bench/, chaos/ and examples/ may reach into any file (they test and measure internals).
 * queues/ is one flat folder of definitions and is entered through any of its files.
 */
export function entryViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    if (!/^(apps|core|workers|queues|shared)\//.test(from)) continue;
    for (const dep of deps) {
      const folder = featureFolderOf(dep);
      if (!folder || folder === featureFolderOf(from) || dep === `${folder}/index.ts`) continue;
      out.push(`${from} → ${dep}`);
    }
  }
  return out;
}

/** Every feature folder below root: the direct subfolders of shared/, core/, workers/ and apps/. */
export function listFeatureFolders(root: string): string[] {
  return ['shared', 'core', 'workers', 'apps']
    .flatMap((layer) =>
      readdirSync(path.join(root, layer), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
        .map((e) => `${layer}/${e.name}`),
    )
    .sort();
}

/**
 * The lines of the note an index.ts opens with: a `/** … *\/` block before anything else, of at
 * least two lines of text (what the folder owns, what it may import, its entry points); null when
 * the file does not open with one.
 */
export function openingNote(source: string): string[] | null {
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!m?.[1]) return null;
  const lines = m[1]
    .split('\n')
    .map((l) => l.replace(/^\s*\*?\s?/, '').trim())
    .filter((l) => l !== '');
  return lines.length >= 2 ? lines : null;
}
