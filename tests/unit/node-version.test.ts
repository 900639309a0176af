import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { MIN_NODE_MAJOR, nodeVersionProblem } from '../../apps/cli/node-version.ts';
import { bundledNode, MIN_NODE_MAJOR as SHIM_MIN_NODE_MAJOR } from '../../apps/cli/newer-node.mjs';
import { tempDirs } from '../helpers/temp-dirs.ts';

const emptyDir = tempDirs('quarry-nonode-');

const root = path.resolve(import.meta.dirname, '../..');

describe('nodeVersionProblem', () => {
  it('accepts Node 22 and newer', () => {
    for (const v of ['v22.0.0', 'v22.23.3', 'v24.11.1', 'v100.0.0']) expect(nodeVersionProblem(v)).toBeNull();
  });

  it('refuses older ones, naming the version, the minimum and how to get it', () => {
    for (const v of ['v20.20.2', 'v21.7.3', 'v18.0.0', 'v9.11.2']) {
      const problem = nodeVersionProblem(v);
      expect(problem).toContain(`Node.js ${v} is too old`);
      expect(problem).toContain(`Node.js ${MIN_NODE_MAJOR} or newer`);
      expect(problem).toContain('npm run quarry');
    }
  });

  it('refuses what it cannot read', () => {
    expect(nodeVersionProblem('')).toContain('too old');
    expect(nodeVersionProblem('vNaN')).toContain('too old');
  });
});

describe('the plain-JavaScript entry shim', () => {
  it('asks for the same Node.js major as the CLI', () => {
    expect(SHIM_MIN_NODE_MAJOR).toBe(MIN_NODE_MAJOR);
  });

  it("finds the checkout's bundled Node, and none where npm ci put none", () => {
    expect(bundledNode(pathToFileURL(`${root}/`))).toBe(path.join(root, 'node_modules/.bin/node'));
    expect(bundledNode(pathToFileURL(`${emptyDir()}/`))).toBeNull();
  });
});

// The machine's own Node when it is older than Quarry's (Debian's is 20): what an MCP client's
// `"command": "node"` starts. The CLI runs itself again on the checkout's Node 22.
const SYSTEM_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => existsSync(p) && p !== process.execPath);
describe('quarry on an old Node', () => {
  it("runs on the checkout's Node 22 instead, with the same arguments and exit status", async (ctx) => {
    if (!SYSTEM_NODE) return ctx.skip('no second Node.js on this machine to run the CLI with');
    const { stdout } = await promisify(execFile)(SYSTEM_NODE, ['-p', 'process.versions.node']);
    if (Number(stdout.split('.')[0]) >= MIN_NODE_MAJOR) return ctx.skip(`the machine's Node.js is ${stdout.trim()}, not older than ${MIN_NODE_MAJOR}`);
    const help = await promisify(execFile)(SYSTEM_NODE, [path.join(root, 'apps/cli/quarry.mjs'), '--help'], { cwd: root, timeout: 30_000 });
    expect(help.stdout).toContain('Usage: quarry');
    expect(help.stdout).toContain('mcp');
    const failed = await promisify(execFile)(SYSTEM_NODE, [path.join(root, 'apps/cli/quarry.mjs'), 'no-such-command'], { cwd: root, timeout: 30_000 }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("unknown command 'no-such-command'");
  });
});
