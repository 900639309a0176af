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
  for (const file of files) {
    out.push(
      await registerSource(ports, {
        sourceKey: `file:${path.basename(file)}`,
        sourceUri: pathToFileURL(file).href,
        collector: 'bench',
        bytes: new Uint8Array(await readFile(file)),
        meta: {},
        fetchedAt: new Date(),
      }),
    );
  }
  return out;
}
