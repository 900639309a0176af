import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { quietLanceDbLogs } from '../../shared/lance-logs.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const TSX = pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
const MODULE = pathToFileURL(path.resolve(import.meta.dirname, '../../shared/lance-logs.ts')).href;
const FIRST_IMPORT = pathToFileURL(path.resolve(import.meta.dirname, '../../shared/store/lancedb/quiet-logs-first.ts')).href;
const tempDir = tempDirs('quarry-lance-logs-');

describe('quietLanceDbLogs', () => {
  it("keeps only errors unless the operator chose a level", () => {
    const unset: NodeJS.ProcessEnv = {};
    quietLanceDbLogs(unset);
    expect(unset.LANCEDB_LOG).toBe('error');
    const blank: NodeJS.ProcessEnv = { LANCEDB_LOG: ' ' };
    quietLanceDbLogs(blank);
    expect(blank.LANCEDB_LOG).toBe('error');
    const chosen: NodeJS.ProcessEnv = { LANCEDB_LOG: 'lance=debug' };
    quietLanceDbLogs(chosen);
    expect(chosen.LANCEDB_LOG).toBe('lance=debug');
  });

  // Creating a table makes LanceDB warn "No existing dataset … will be created" on stderr.
  const createTable = async (quiet: 'no' | 'call' | 'first import') => {
    const script = [
      quiet === 'call' ? `(await import(${JSON.stringify(MODULE)})).quietLanceDbLogs();` : '',
      quiet === 'first import' ? `await import(${JSON.stringify(FIRST_IMPORT)});` : '',
      `const lancedb = await import('@lancedb/lancedb');`,
      `const db = await lancedb.connect(${JSON.stringify(tempDir())});`,
      `await db.createTable('t', [{ id: 1 }], { mode: 'overwrite' });`,
    ].join('\n');
    const env = { ...process.env };
    delete env.LANCEDB_LOG;
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], { env, cwd: path.resolve(import.meta.dirname, '../..'), timeout: 30_000 });
    return stderr;
  };

  it("silences LanceDB's warnings when it runs before LanceDB loads, called or imported first", async () => {
    expect(await createTable('no')).toMatch(/WARN\s+lance/);
    expect(await createTable('call')).not.toMatch(/WARN/);
    expect(await createTable('first import')).not.toMatch(/WARN/);
  });
});
