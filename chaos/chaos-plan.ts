/**
 * The chaos run's options and its schedule of faults, as pure functions: which process dies when,
 * and when Redis restarts. Seeded, so a run that found something can be repeated.
 */
import { createRng, mixSeed, type Rng } from '../tests/fixtures/corpus-vocabulary.ts';

/** Persistence of the private Redis in a disturbed run: `aof` is `appendonly yes`, `none` is off. */
export const CHAOS_MODES = ['aof', 'none'] as const;
export type ChaosMode = (typeof CHAOS_MODES)[number];

/** The stage workers that run one process each, as `quarry workers start --only <name>` takes them. */
export const CHAOS_WORKERS = ['extract', 'sectionize', 'chunk', 'enrich', 'embed', 'upsert', 'delete', 'facet-rebuild'] as const;
/** Every process the harness runs and may kill: the workers and the folder watcher. */
export const CHAOS_PROCESSES = [...CHAOS_WORKERS, 'watcher'] as const;
export type ChaosProcess = (typeof CHAOS_PROCESSES)[number];

export interface ChaosOptions {
  /** Good (indexable) documents in the corpus. @defaultValue 200 */
  docs: number;
  /** Bad PDFs added to the corpus (each must fail the same way in every run). @defaultValue 4 */
  bad: number;
  /** Disturbed runs, in order. @defaultValue ['aof', 'none'] */
  modes: ChaosMode[];
  /** Bound on one run, from the first process start to the last status read. @defaultValue 300 */
  seconds: number;
  /** Seeds the corpus and the kill schedule. @defaultValue 12 */
  seed: number;
  /** Print nothing but the JSON object on stdout. @defaultValue false */
  json: boolean;
  /** Keep the temporary directory (logs, data) for a post-mortem. @defaultValue false */
  keep: boolean;
  /**
   * Let the watcher be killed too. Off by default: a restarted watcher re-scans the folder and
   * so would repair what the run is meant to see the reconciler repair (documents Redis forgot).
   * @defaultValue false
   */
  killWatcher: boolean;
}

const DEFAULTS: ChaosOptions = { docs: 200, bad: 4, modes: [...CHAOS_MODES], seconds: 300, seed: 12, json: false, keep: false, killWatcher: false };

function positiveInt(name: string, raw: string | undefined, min: number): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isInteger(n) || n < min) throw new Error(`--${name} wants an integer ≥ ${min}, got ${raw ?? 'nothing'}`);
  return n;
}

/**
 * Parses `--docs N --bad N --modes aof,none --seconds N --seed N --json --keep --kill-watcher` (also `--docs=N`).
 * @throws Error naming an unknown option, a bad number or an unknown mode.
 */
export function parseChaosArgs(argv: readonly string[]): ChaosOptions {
  const o: ChaosOptions = { ...DEFAULTS, modes: [...DEFAULTS.modes] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '';
    const value = () => (eq >= 0 ? arg.slice(eq + 1) : argv[++i]);
    switch (name) {
      case 'json':
        o.json = true;
        break;
      case 'keep':
        o.keep = true;
        break;
      case 'kill-watcher':
        o.killWatcher = true;
        break;
      case 'docs':
        o.docs = positiveInt(name, value(), 1);
        break;
      case 'bad':
        o.bad = positiveInt(name, value(), 0);
        break;
      case 'seconds':
        o.seconds = positiveInt(name, value(), 10);
        break;
      case 'seed':
        o.seed = positiveInt(name, value(), 0);
        break;
      case 'modes': {
        const modes = (value() ?? '').split(',').map((m) => m.trim()).filter(Boolean);
        const unknown = modes.filter((m) => !(CHAOS_MODES as readonly string[]).includes(m));
        if (!modes.length || unknown.length) throw new Error(`--modes takes ${CHAOS_MODES.join(',')}; got ${unknown.join(',') || 'nothing'}`);
        o.modes = [...new Set(modes)] as ChaosMode[];
        break;
      }
      default:
        throw new Error(`unknown option ${arg}; known: --docs N --bad N --modes aof,none --seconds N --seed N --json --keep --kill-watcher`);
    }
  }
  return o;
}

/** A source of fault decisions for one run. */
export interface KillSchedule {
  /** Milliseconds until the next kill: uniform in [minMs, maxMs]. */
  nextDelayMs(): number;
  /** The process to kill next. */
  nextVictim(): ChaosProcess;
}

/** Kills every 2–5 s (by default) of a uniformly chosen worker (or `victims`), seeded per run. */
export function killSchedule(seed: number, run: number, opts: { minMs?: number; maxMs?: number; victims?: readonly ChaosProcess[] } = {}): KillSchedule {
  const rng: Rng = createRng(mixSeed(seed, run, 0xc4a0));
  const min = opts.minMs ?? 2000;
  const max = opts.maxMs ?? 5000;
  const victims = opts.victims ?? CHAOS_WORKERS;
  return {
    nextDelayMs: () => rng.int(min, max),
    nextVictim: () => rng.pick(victims),
  };
}

/**
 * Whether Redis should restart now: once per disturbed run, when about a third of the corpus has
 * settled (so some documents are done, many in flight), or a third of the time bound has passed
 * on a slow machine.
 */
export function redisRestartDue(p: { settled: number; total: number; elapsedMs: number; boundMs: number; done: boolean }): boolean {
  if (p.done) return false;
  return p.settled >= Math.ceil(p.total * 0.3) || p.elapsedMs >= p.boundMs / 3;
}
