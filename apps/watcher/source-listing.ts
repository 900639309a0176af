import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DIR_KEY_PREFIX } from './local-watcher.ts';

/**
 * Source keys of every PDF in the watched folder, as the folder watcher names them
 * (`dir:<relative/path.pdf>`), for the reconciler to find files with no status record.
 * Reads directory entries only, never a file's bytes. A link named `*.pdf` is listed (the watcher
 * records it, refused, under this key) but a linked directory is never entered: nothing outside
 * the folder is looked at.
 */
export async function listFolderSourceKeys(dir: string): Promise<string[]> {
  const keys: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (err) {
      // A directory removed while being listed has nothing left to register.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else if ((e.isFile() || e.isSymbolicLink()) && /\.pdf$/i.test(e.name)) keys.push(DIR_KEY_PREFIX + child);
    }
  };
  await walk('');
  return keys.sort();
}
