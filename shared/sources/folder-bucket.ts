import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readFileChecked } from './safe-read.ts';
import type { SourceBucket, SourceObject } from './source-bucket.ts';

const isGone = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** A folder entry's tag: its modification time, the folder's stand-in for an ETag. */
const tagOf = (st: Pick<Stats, 'mtimeMs'>) => String(st.mtimeMs);

/**
 * The SourceBucket of a local folder. Nothing outside it is read: `root` must be its real path
 * (realpath), a symbolic link is never followed (a linked file is listed as itself, and refused
 * SYMLINK_REFUSED when read), a linked directory is never entered. Keys are paths below `root`
 * with `/` separators; messages name them by that path, never the machine's absolute one.
 */
export function createFolderBucket(root: string): SourceBucket {
  const fileOf = (key: string) => path.join(root, ...key.split('/'));
  const where = (key: string) => path.normalize(key);

  async function stat(key: string): Promise<SourceObject | null> {
    try {
      const st = await lstat(fileOf(key));
      return st.isDirectory() ? null : { key, size: st.size, tag: tagOf(st) };
    } catch (err) {
      if (isGone(err)) return null;
      throw err;
    }
  }

  return {
    where,
    stat,
    async list() {
      const out: SourceObject[] = [];
      const walk = async (rel: string): Promise<void> => {
        let entries: Dirent[];
        try {
          entries = await readdir(path.join(root, rel), { withFileTypes: true });
        } catch (err) {
          // A directory removed while being listed has nothing left to list.
          if (isGone(err)) return;
          throw err;
        }
        for (const e of entries) {
          const child = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) await walk(child);
          else if (e.isFile() || e.isSymbolicLink()) {
            const found = await stat(child);
            if (found) out.push(found);
          }
        }
      };
      await walk('');
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async read(key, limits) {
      try {
        const read = await readFileChecked(fileOf(key), { root, maxBytes: limits.maxBytes, where: where(key), pdf: limits.pdf });
        const { size } = read.st;
        const tag = tagOf(read.st);
        return read.kind === 'read' ? { kind: 'read', bytes: read.bytes, size, tag } : { kind: 'refused', problem: read.problem, size, tag, seen: `${size}|${read.st.mtimeMs}` };
      } catch (err) {
        if (isGone(err)) return null;
        throw err;
      }
    },
  };
}
