#!/usr/bin/env node
// Development entry: registers tsx so the TypeScript sources run as they are (what `npm run
// quarry`, the tests, bench and chaos scripts start). The installed bin and the container run the
// compiled build instead: apps/cli/quarry-dist.mjs.
import { register } from 'tsx/esm/api';

register();
await import('./bin.ts');
