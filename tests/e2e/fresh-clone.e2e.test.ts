/**
 * Issue 27: a fresh clone, the README's first command as written, then the web app in Chromium —
 * with no manual step. The suite copies the repository as a clone has it (the files git tracks,
 * plus untracked ones git does not ignore; no node_modules, no inbox/, no .quarry/) into a temp
 * directory, runs `npm ci && npm run dev` there in a process group of its own, uploads two PDFs
 * through the Documents page, sees both indexed, asks a question and gets an answer with a
 * citation, then stops the group with one SIGTERM and checks that nothing of the tree is left.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../apps/cli/local-redis.ts';
import { dropFiles, HAVE_CHROMIUM, launchChromium, screenshotDir } from '../helpers/browser.ts';
import { commandLine, descendants, HAVE_PROC, portInUse, until } from '../helpers/process-tree.ts';
import { REDIS_AVAILABLE } from '../helpers/redis.ts';

const root = path.resolve(import.meta.dirname, '../..');
const UPLOADS = ['parental-leave-policy-2025.pdf', 'ko-birth-incentive-guideline.pdf'];
const QUESTION = 'How many weeks of paid parental leave do employees get?';
/** `npm ci` from the warm cache takes about 45 s on two cores; a cold or busy machine much longer. */
const INSTALL_AND_START_MS = 6 * 60_000;

/**
 * The environment of a user's shell on this machine: the test runner's own traces removed (npx
 * puts this checkout's node_modules/.bin, with its Node 22, first on PATH and sets npm_* and
 * INIT_CWD; vitest sets NODE_ENV and VITEST*), and no Quarry settings, so the copy runs on the
 * machine's own npm and Node with Quarry's defaults, as a fresh clone does.
 */
function userShellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|QUARRY_|GATEWAY_)/i.test(k) || ['INIT_CWD', 'NODE', 'NODE_ENV', 'REDIS_URL', 'TEST'].includes(k)) continue;
    env[k] = v;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && !/[\\/]node_modules[\\/]\.bin$/.test(dir) && !/node-gyp-bin$/.test(dir))
    .join(path.delimiter);
  return env;
}

const SHELL_ENV = userShellEnv();
const HAVE_NPM = spawnSync('npm', ['--version'], { env: SHELL_ENV, stdio: 'ignore' }).status === 0;
const HAVE_GIT = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: root, stdio: 'ignore' }).status === 0;
const skipReasons = [
  !HAVE_CHROMIUM && 'no Chromium',
  !REDIS_AVAILABLE && 'redis-server is not installed',
  !HAVE_NPM && 'npm is not on PATH',
  !HAVE_GIT && 'not a git checkout (the copy is made from `git ls-files`)',
  !HAVE_PROC && 'process trees are read from /proc (Linux only)',
].filter(Boolean);
if (skipReasons.length) console.warn(`fresh-clone browser test skipped: ${skipReasons.join('; ')}`);

/** The README's first command: the first line of its first ```sh block, without the comment. */
function readmeFirstCommand(): string {
  const block = /```sh\n([^\n]*)/.exec(readFileSync(path.join(root, 'README.md'), 'utf8'))?.[1];
  if (!block) throw new Error('README.md has no ```sh block');
  return block.replace(/\s+#.*$/, '').trim();
}

/**
 * Copies the repository into `dest` as a clone has it: the files git tracks plus the untracked ones
 * it does not ignore (work in progress a commit would take along). A local `inbox/` is a
 * developer's own dev state, never part of a clone, so an untracked one is left behind; tracked
 * files are copied wherever they are. Returns how many files were copied.
 */
function copyAsCloned(dest: string): number {
  const list = (args: string[]) =>
    execFileSync('git', ['ls-files', '-z', ...args], { cwd: root, maxBuffer: 256 << 20 })
      .toString('utf8')
      .split('\0')
      .filter(Boolean);
  const untracked = list(['-o', '--exclude-standard']).filter((rel) => !rel.startsWith('inbox/'));
  let copied = 0;
  for (const rel of new Set([...list(['-c']), ...untracked])) {
    const from = path.join(root, rel);
    const to = path.join(dest, rel);
    let stat;
    try {
      stat = lstatSync(from);
    } catch {
      continue; // tracked but deleted in the working tree: a commit would not have it either
    }
    mkdirSync(path.dirname(to), { recursive: true });
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (stat.isFile()) copyFileSync(from, to);
    else continue;
    copied++;
  }
  return copied;
}

/** When the kernel started `pid` (field 22 of /proc/<pid>/stat), to tell it from a later process given the same pid; null once it is gone. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : (fields[19] ?? null);
  } catch {
    return null;
  }
}

/** The `sh -c '<command>'` the test started, its output, and every process of its tree seen so far. */
interface Run {
  child: ChildProcess;
  output(): string;
  /** pid → start time of each process seen in the tree (sampled while it runs: children come and go). */
  seen: Map<number, string>;
  sample(): void;
  /** The processes seen that still run (the same process, not a new one under a reused pid). */
  live(): number[];
}

function startInGroup(command: string, cwd: string, env: NodeJS.ProcessEnv): Run {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const seen = new Map<number, string>();
  return {
    child,
    output: () => out,
    seen,
    sample() {
      if (!child.pid) return;
      for (const pid of descendants(child.pid)) {
        const t = startTime(pid);
        if (t !== null && !seen.has(pid)) seen.set(pid, t);
      }
    },
    live: () => [...seen].filter(([pid, t]) => startTime(pid) === t).map(([pid]) => pid),
  };
}

/** The last part of a long output, for failure messages. */
const tail = (text: string, chars = 6000) => (text.length > chars ? `…${text.slice(-chars)}` : text);

describe.skipIf(skipReasons.length > 0)('a fresh clone: the README’s first command, then upload, index and ask in Chromium', () => {
  const SHOTS = screenshotDir({}); // always the git-ignored tests/e2e/screenshots: these are not README pictures
  let copy: string | undefined;
  let run: Run | undefined;
  let sampler: NodeJS.Timeout | undefined;
  let gatewayPort = 0;
  let redisPort = 0;
  let base = '';
  let browser: Browser | undefined;
  let page: Page | undefined;

  afterAll(async () => {
    clearInterval(sampler);
    await browser?.close().catch(() => undefined);
    if (run) {
      // A failed test must not leave its tree behind: the group, then whatever left it (the Redis `dev` starts runs in a session of its own).
      if (run.child.pid && run.child.exitCode === null && run.child.signalCode === null) {
        try {
          process.kill(-run.child.pid, 'SIGKILL');
        } catch {
          // The group is gone already.
        }
      }
      for (const pid of run.live()) process.kill(pid, 'SIGKILL');
      await until('the killed processes to exit', () => run!.live().length === 0, 20_000).catch((err: Error) => console.warn(err.message));
    }
    if (copy) rmSync(copy, { recursive: true, force: true });
  }, 120_000);

  /** What a later step needs from an earlier one that may have failed. */
  function started(): { run: Run; page: Page; copy: string } {
    if (!run || !page || !copy || !base) throw new Error('`npm run dev` did not start (see the earlier failure)');
    return { run, page, copy };
  }

  it('the copy has what a clone has: no node_modules, no inbox/, no .quarry/', () => {
    copy = mkdtempSync(path.join(tmpdir(), 'quarry-fresh-clone-'));
    expect(copyAsCloned(copy)).toBeGreaterThan(100);
    expect(existsSync(path.join(copy, 'package.json'))).toBe(true);
    expect(existsSync(path.join(copy, 'package-lock.json'))).toBe(true);
    expect(existsSync(path.join(copy, 'examples/docs', UPLOADS[0]!))).toBe(true);
    expect(existsSync(path.join(copy, 'node_modules'))).toBe(false);
    expect(existsSync(path.join(copy, '.quarry'))).toBe(false);
    expect(existsSync(path.join(copy, 'inbox')), 'a clone has no inbox/: `dev` must create it').toBe(false);
  });

  it(
    'runs the README’s first command as written: npm ci installs, `dev` creates inbox/, starts its own Redis and serves the app',
    async () => {
      if (!copy) throw new Error('no copy (see the earlier failure)');
      const command = readmeFirstCommand();
      expect(command, 'this test drives the README’s first command; it changed').toBe('npm ci && npm run dev');
      gatewayPort = await freePort();
      redisPort = await freePort();
      // Nothing answers at REDIS_URL, as on a fresh machine: `dev` starts a redis-server of its own.
      expect(await portInUse(redisPort)).toBe(false);
      run = startInGroup(command, copy, {
        ...SHELL_ENV,
        GATEWAY_PORT: String(gatewayPort), // 8080 may be taken on this machine
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        npm_config_prefer_offline: 'true', // the warm npm cache, not the network, where it can
      });
      const r = run;
      sampler = setInterval(() => r.sample(), 500);
      await until(
        `http://127.0.0.1:${gatewayPort}/healthz to answer`,
        async () => {
          r.sample();
          if (r.child.exitCode !== null || r.child.signalCode !== null) {
            throw new Error(`\`${command}\` exited (${r.child.exitCode ?? r.child.signalCode}) before the gateway answered:\n${tail(r.output())}`);
          }
          return fetch(`http://127.0.0.1:${gatewayPort}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
            (res) => res.ok,
            () => false,
          );
        },
        INSTALL_AND_START_MS,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\noutput so far:\n${tail(r.output())}`);
      });
      base = `http://127.0.0.1:${gatewayPort}`;
      const out = r.output();
      expect(existsSync(path.join(copy, 'node_modules/.bin/node')), 'npm ci installed the checkout’s own Node').toBe(true);
      expect(out, 'dev says it created the watched folder').toMatch(/quarry dev: created inbox \(watched folder: drop PDFs here\)/);
      expect(existsSync(path.join(copy, 'inbox')), '`dev` created inbox/ in the clone').toBe(true);
      expect(out).toMatch(/quarry dev: started a local redis-server at redis:\/\/127\.0\.0\.1:\d+/);
      redisPort = Number(/started a local redis-server at redis:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);
      expect(out).toContain(`web app and gateway at ${base}/`);

      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      await page.goto(`${base}/`);
      // No keys are configured: the gateway listens on loopback only and the app asks for none.
      await page.waitForSelector('textarea[name=query]', { timeout: 30_000 });
      expect(await page.locator('.key-form').count()).toBe(0);
    },
    INSTALL_AND_START_MS + 60_000,
  );

  it('the Documents page uploads two PDFs by drag-and-drop; both become indexed', async () => {
    const { run: r, page: p, copy: dir } = started();
    await p.click('nav a[href="#/documents"]');
    await p.waitForSelector('[data-testid=dropzone]');
    await dropFiles(
      p,
      '[data-testid=dropzone]',
      UPLOADS.map((name) => ({ name, bytes: readFileSync(path.join(dir, 'examples/docs', name)) })),
    );
    const rows = () => p.locator('tr[data-doc]').evaluateAll((trs) => trs.map((tr) => ({ name: tr.getAttribute('data-doc'), state: tr.getAttribute('data-state'), text: tr.textContent })));
    await until(
      'both uploads to show as indexed',
      async () => {
        r.sample();
        const now = await rows();
        const failed = now.find((row) => row.state === 'failed');
        if (failed) throw new Error(`${failed.name} failed: ${failed.text}\noutput:\n${tail(r.output())}`);
        return UPLOADS.every((name) => now.some((row) => row.name === name && row.state === 'indexed'));
      },
      180_000,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\nrows: ${JSON.stringify(await rows())}\noutput:\n${tail(r.output())}`);
    });
    // The uploads went into the folder `dev` created and watches.
    expect(readdirSync(path.join(dir, 'inbox')).sort()).toEqual([...UPLOADS].sort());
    await p.screenshot({ path: path.join(SHOTS, 'fresh-clone-documents.png') });
  }, 240_000);

  it('Ask answers the question with at least one citation chip', async () => {
    const { run: r, page: p } = started();
    await p.click('nav a[href="#/ask"]');
    await p.fill('textarea[name=query]', QUESTION);
    await p.click('.ask-form button[type=submit]');
    await p.waitForSelector('[data-testid=answer][data-done=true]', { timeout: 120_000 }).catch((err: Error) => {
      throw new Error(`${err.message}\noutput:\n${tail(r.output())}`);
    });
    r.sample();
    expect(await p.textContent('.answer-text')).toMatch(/sixteen \(16\) weeks/);
    const chips = p.locator('[data-testid=citations] .chip');
    expect(await chips.count()).toBeGreaterThanOrEqual(1);
    expect(await chips.first().textContent()).toMatch(/Leave Entitlement/);
    await p.screenshot({ path: path.join(SHOTS, 'fresh-clone-ask.png') });
  }, 180_000);

  it('one SIGTERM to the process group stops the whole tree, Redis included; the copy is removed', async () => {
    const { run: r, copy: dir } = started();
    await browser?.close();
    browser = undefined;
    clearInterval(sampler);
    r.sample();
    // Running now: sh, npm, Quarry's node, the Redis guard and its server at least (npm ci's processes are gone).
    const running = r.live();
    expect(running.length, running.map((pid) => `${pid} ${commandLine(pid)}`).join('\n')).toBeGreaterThanOrEqual(5);
    expect(running).toContain(r.child.pid);
    expect(running.some((pid) => commandLine(pid).startsWith('redis-server')), 'the Redis `dev` started is part of the tree').toBe(true);
    process.kill(-r.child.pid!, 'SIGTERM');
    await until('every process of the tree to exit', () => r.live().length === 0, 90_000).catch((err: Error) => {
      throw new Error(`${err.message}; still running:\n${r.live().map((pid) => `${pid} ${commandLine(pid)}`).join('\n')}\noutput:\n${tail(r.output())}`);
    });
    for (const port of [gatewayPort, redisPort]) expect(await portInUse(port), `port ${port} still in use`).toBe(false);
    // One stop request, handled gracefully (the group's copy and npm's forwarded one are the same request).
    expect(r.output()).toContain('shutting down');
    expect(r.output()).not.toContain('exiting at once');
    rmSync(dir, { recursive: true, force: true });
    copy = undefined;
    expect(existsSync(dir)).toBe(false);
  }, 120_000);
});
