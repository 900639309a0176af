#!/usr/bin/env node
// Development entry: registers tsx so the TypeScript sources run as they are (what `npm run
// quarry`, the tests, bench and chaos scripts start). The installed bin and the container run the
// compiled build instead: apps/cli/quarry-dist.mjs. Started on a Node older than 22, it runs
// itself again on the checkout's own Node 22 (newer-node.mjs).
import { runOnNewerNode } from './newer-node.mjs';

if (!runOnNewerNode(import.meta.url, new URL('../../', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./bin.ts');
}
