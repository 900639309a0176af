#!/usr/bin/env node
// The installed `quarry` bin (package.json "bin") and the container image's entry: runs the
// compiled CLI that `npm run build` writes to dist/, with plain Node (no tsx, no TypeScript
// compiled at start-up). From a checkout without a build, `npm run quarry -- <args>` (or
// apps/cli/quarry.mjs) runs the sources instead. Started on a Node older than 22, it runs itself
// again on the checkout's own Node 22 (newer-node.mjs).
import { existsSync } from 'node:fs';
import { runOnNewerNode } from './newer-node.mjs';

if (!runOnNewerNode(import.meta.url, new URL('../../', import.meta.url))) {
  const entry = new URL('../../dist/apps/cli/bin.js', import.meta.url);
  if (!existsSync(entry)) {
    process.stderr.write('quarry: the compiled CLI (dist/apps/cli/bin.js) is missing: run `npm run build` first, or `npm run quarry -- <args>` to run from sources\n');
    process.exit(1);
  }
  await import(entry.href);
}
