/**
 * `npm run test:loaded`: the README's test command beside a CPU hog — two busy loops per core,
 * each ending by itself after `--hog-minutes` (default 60) — as a CI machine shared with other
 * work runs it. The suite must pass there: no test may hinge on wall-clock speed. Exits with
 * `npm test`'s status; the hogs are stopped as soon as it ends (and die by themselves otherwise).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

/** The busy loop each hog runs: spins until its own deadline, so none can outlive a lost parent by long. */
export function hogScript(ms: number): string {
  return `const end = Date.now() + ${Math.round(ms)}; let x = 0; while (Date.now() < end) { x = (x * 1103515245 + 12345) % 2147483648; }`;
}

/** How many hogs: two per core. */
export function hogCount(cores: number): number {
  return 2 * Math.max(1, cores);
}

function minutesArg(argv: readonly string[]): number {
  const i = argv.indexOf('--hog-minutes');
  const v = i >= 0 ? Number(argv[i + 1]) : 60;
  if (!(v > 0)) throw new Error(`--hog-minutes must be a positive number, got ${argv[i + 1]}`);
  return v;
}

async function main(): Promise<void> {
  const minutes = minutesArg(process.argv.slice(2));
  const cores = availableParallelism();
  const hogs: ChildProcess[] = Array.from({ length: hogCount(cores) }, () => spawn(process.execPath, ['-e', hogScript(minutes * 60_000)], { stdio: 'ignore' }));
  const stopHogs = () => {
    for (const h of hogs) if (h.exitCode === null) h.kill('SIGKILL');
  };
  process.on('exit', stopHogs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  process.stderr.write(`test:loaded: ${hogs.length} busy loops on ${cores} cores for up to ${minutes} min, load average ${loadavg()[0]?.toFixed(2)}\n`);
  const test = spawn('npm', ['test'], { stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => test.once('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
  process.stderr.write(`test:loaded: npm test exited ${code}, load average ${loadavg()[0]?.toFixed(2)}\n`);
  stopHogs();
  process.exit(code);
}

// Run only as the script (a test may import the pure parts).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
