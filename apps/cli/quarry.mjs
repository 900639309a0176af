#!/usr/bin/env node
// Entry for the `quarry` bin: registers tsx so the TypeScript sources run as they are.
import { register } from 'tsx/esm/api';

register();
await import('./bin.ts');
