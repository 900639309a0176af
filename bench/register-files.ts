import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { registerSource, type RegisterPorts, type RegisterResult } from '../core/sources/register-source.ts';

/**
 * Registers benchmark files one after another, as `quarry ingest` would (key `file:<name>`, no
 * metadata), so every bench mode starts its documents the same way.
 */
export async function registerFiles(ports: RegisterPorts, files: readonly string[]): Promise<RegisterResult[]> {
  const out: RegisterResult[] = [];
  for (const file of files) out.push(await registerAs(ports, file, `file:${path.basename(file)}`));
  return out;
}

/**
 * Registers `file` once more as a document of its own (key `file:warm-up-<name>`), for a run that
 * must take its processes' start-up out of what it measures.
 */
export function registerWarmUp(ports: RegisterPorts, file: string): Promise<RegisterResult> {
  return registerAs(ports, file, `file:warm-up-${path.basename(file)}`);
}

async function registerAs(ports: RegisterPorts, file: string, sourceKey: string): Promise<RegisterResult> {
  return registerSource(ports, {
    sourceKey,
    sourceUri: pathToFileURL(file).href,
    collector: 'bench',
    bytes: new Uint8Array(await readFile(file)),
    meta: {},
    fetchedAt: new Date(),
  });
}
