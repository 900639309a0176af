/**
 * Neighbours that touch memory, for the query bench's hardware floor: processes at a given nice
 * value that write one byte per cache line over a buffer of their own, round after round, as an
 * ingest worker's allocations and artifacts do. Nice orders CPU time, not the last-level cache two
 * cores share or the memory bus, so such neighbours slow a search even at a low priority (docs/
 * benchmarks.md, "What a neighbour's memory traffic costs a search"). A series of searches beside
 * them is what the machine alone takes from a search while something else works; the rest of what
 * an ingest costs a search is the store's.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** How many neighbours, at which nice value, each writing over how many MB, for at most how long. */
export interface NeighbourOptions {
  count: number;
  nice: number;
  mb: number;
  /** Each neighbour ends by itself after this long, whatever happens to the bench. */
  maxMs: number;
}

/**
 * The neighbour, plain JavaScript: lowers its own priority (the thread that does the work), fills
 * its buffer once and says `ready`, then writes a byte per 64-byte line round after round. It ends
 * after `maxMs`, or as soon as its parent is gone (its parent process id changes).
 */
const NEIGHBOUR = `
const os = require('node:os');
const [mb, nice, maxMs] = process.argv.slice(1).map(Number);
if (nice > 0) os.setPriority(0, nice);
const buf = Buffer.alloc(mb * 1048576, 1);
const end = Date.now() + maxMs;
const parent = process.ppid;
process.stdout.write('ready\\n');
for (;;) {
  for (let i = 0; i < buf.length; i += 64) buf[i] = (buf[i] + 1) & 255;
  if (Date.now() > end || process.ppid !== parent) process.exit(0);
}
`;

/** Running neighbours: their process ids, and a stop that resolves once every one has exited. */
export interface Neighbours {
  pids: number[];
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

function ready(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`a memory neighbour did not fill its buffer within ${timeoutMs} ms`)), timeoutMs);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`a memory neighbour ended before it was ready (${signal ?? `exit code ${code}`})`));
    });
  });
}

/**
 * Starts `count` neighbours and resolves once each has touched its whole buffer.
 * @throws RangeError on a count, size or bound that is not a positive whole number (nice: 0–19).
 * @throws Error when a neighbour ends or stalls before it is ready (the others are stopped).
 */
export async function startMemoryNeighbours(opts: NeighbourOptions): Promise<Neighbours> {
  for (const [name, value] of [['count', opts.count], ['mb', opts.mb], ['maxMs', opts.maxMs]] as const) {
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`memory neighbours: ${name} must be a positive whole number, not ${value}`);
  }
  if (!Number.isInteger(opts.nice) || opts.nice < 0 || opts.nice > 19) throw new RangeError(`memory neighbours: nice must be a whole number from 0 to 19, not ${opts.nice}`);
  const children = Array.from({ length: opts.count }, () =>
    spawn(process.execPath, ['-e', NEIGHBOUR, String(opts.mb), String(opts.nice), String(opts.maxMs)], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_OPTIONS: '' } }),
  );
  const stop = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
  };
  try {
    await Promise.all(children.map((child) => ready(child, 60_000)));
  } catch (err) {
    await stop();
    throw err;
  }
  return { pids: children.map((c) => c.pid as number), stop };
}

/** Runs `fn` beside neighbours started for it, and stops them however it ends. */
export async function besideMemoryNeighbours<T>(opts: NeighbourOptions, fn: (neighbours: Neighbours) => Promise<T>): Promise<T> {
  const neighbours = await startMemoryNeighbours(opts);
  try {
    return await fn(neighbours);
  } finally {
    await neighbours.stop();
  }
}
