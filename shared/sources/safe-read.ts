/**
 * Reading files of the watched folder without ever reading anything outside it, and without
 * reading a source whose size or type is wrong. The rules:
 * - a symbolic link is never followed, inside the folder or out (lstat first, then the file is
 *   opened with O_NOFOLLOW, so a file swapped for a link between the two is refused too);
 * - the file actually opened must resolve (realpath, same device and inode as the open file)
 *   inside the folder, which also catches a parent directory swapped for a link;
 * - its size (fstat of the open file) and its `%PDF-` header are checked before the rest is read,
 *   and never more than the size checked is read.
 * Files named on the command line (`root: null`) are the operator's choice: links are followed
 * there, the size and type checks still apply.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { PermanentError } from '../errors.ts';
import { isInside, MAX_METADATA_BYTES, PDF_HEADER_WINDOW, sourceProblem, unreadVersion, type SourceLimits, type SourceProblem } from './source-checks.ts';

/** A source file read whole, or refused before its bytes were read. */
export type SourceRead =
  | { kind: 'read'; bytes: Uint8Array }
  | (SourceProblem & { kind: 'refused'; /** fingerprint of what was seen (problem, size, mtime) */ version: string });

// O_NOFOLLOW and O_NONBLOCK are POSIX: where they are missing (Windows) the lstat check still applies.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO swapped in after the lstat must not block the open.
const NONBLOCK = constants.O_NONBLOCK ?? 0;

const refused = (p: SourceProblem, st: Pick<Stats, 'size' | 'mtimeMs'>): SourceRead => ({ kind: 'refused', ...p, version: unreadVersion(p.code, `${st.size}|${st.mtimeMs}`) });

const symlinkProblem = (where: string): SourceProblem => ({
  code: 'SYMLINK_REFUSED',
  message: `${where} is a symbolic link or resolves outside the watched folder; links are never followed`,
});

type Opened = { fh: FileHandle; st: Stats } | { problem: SourceProblem; st: Stats };

/** How often a file replaced (renamed over) while it is opened is tried again. */
const REPLACED_ATTEMPTS = 5;

/**
 * Opens a regular file for reading: with `root`, only one that is no link and lies inside `root`.
 * @returns the open handle and its stat, or the problem (with the stat it was judged on).
 * @throws the filesystem's error (ENOENT when the file is gone); an Error when the file kept being
 *   replaced while it was opened (its next change event reads it).
 */
async function openChecked(file: string, root: string | null, where: string): Promise<Opened> {
  for (let attempt = 1; ; attempt++) {
    const opened = await openOnce(file, root, where);
    if (opened !== 'replaced') return opened;
    if (attempt >= REPLACED_ATTEMPTS) throw new Error(`${where} kept being replaced while it was opened`);
  }
}

/** One attempt of {@link openChecked}; 'replaced' when another file took its place inside the folder meanwhile. */
async function openOnce(file: string, root: string | null, where: string): Promise<Opened | 'replaced'> {
  if (root !== null) {
    const ls = await lstat(file);
    if (ls.isSymbolicLink()) return { problem: symlinkProblem(where), st: ls };
    if (!ls.isFile()) return { problem: { code: 'NOT_A_PDF', message: `${where} is not a regular file` }, st: ls };
  }
  let fh: FileHandle;
  try {
    fh = await open(file, constants.O_RDONLY | NONBLOCK | (root !== null ? NOFOLLOW : 0));
  } catch (err) {
    // ELOOP: the file became a link after the lstat.
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') return { problem: symlinkProblem(where), st: await lstat(file) };
    throw err;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return await closeWith(fh, { problem: { code: 'NOT_A_PDF', message: `${where} is not a regular file` }, st });
    if (root !== null) {
      // The file opened, wherever its path led, must be the one that resolves inside the folder.
      const real = await realpath(file);
      const rs = await stat(real);
      if (!isInside(root, real)) return await closeWith(fh, { problem: symlinkProblem(where), st });
      // Another file now has the name (an atomic rename over it, or a link through a swapped
      // directory): which one was opened is unknown, so open again.
      if (rs.ino !== st.ino || rs.dev !== st.dev) return await closeWith(fh, 'replaced');
    }
    return { fh, st };
  } catch (err) {
    await fh.close();
    throw err;
  }
}

async function closeWith<T>(fh: FileHandle, value: T): Promise<T> {
  await fh.close();
  return value;
}

/** Reads up to `length` bytes from `position`; fewer only at end of file. */
async function readAt(fh: FileHandle, length: number, position: number): Promise<Uint8Array> {
  const buf = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await fh.read(buf, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, filled);
}

/** A file read after its checks, or the problem it was refused for; with the stat it was judged on. */
export type CheckedRead = { kind: 'read'; bytes: Uint8Array; st: Stats } | { kind: 'refused'; problem: SourceProblem; st: Stats };

/**
 * Reads a file after checking it (see the module comment): its size, and with `pdf` its `%PDF-`
 * header, before the rest is read.
 * @throws the filesystem's error (ENOENT when the file is gone).
 */
export async function readFileChecked(file: string, opts: SourceLimits & { root: string | null; where: string; pdf: boolean }): Promise<CheckedRead> {
  const opened = await openChecked(file, opts.root, opts.where);
  if ('problem' in opened) return { kind: 'refused', problem: opened.problem, st: opened.st };
  const { fh, st } = opened;
  try {
    const sized = sourceProblem({ size: st.size }, opts, opts.where);
    if (sized) return { kind: 'refused', problem: sized, st };
    if (opts.pdf) {
      const head = await readAt(fh, Math.min(st.size, PDF_HEADER_WINDOW), 0);
      const typed = sourceProblem({ size: st.size, head }, opts, opts.where);
      if (typed) return { kind: 'refused', problem: typed, st };
    }
    // Never more than the size checked, even if the file grew since (its change event comes next).
    return { kind: 'read', bytes: await readAt(fh, st.size, 0), st };
  } finally {
    await fh.close();
  }
}

/**
 * Reads a PDF after checking it (see the module comment).
 * @param opts.root the watched folder, already resolved with realpath; null for a path named on the command line.
 * @param opts.where names the file in messages (relative path, never the machine's absolute one).
 * @returns the bytes, or why it was refused unread (TOO_LARGE, NOT_A_PDF, SYMLINK_REFUSED).
 * @throws the filesystem's error (ENOENT when the file is gone).
 */
export async function readSourceFile(file: string, opts: SourceLimits & { root: string | null; where: string }): Promise<SourceRead> {
  const read = await readFileChecked(file, { ...opts, pdf: true });
  return read.kind === 'read' ? { kind: 'read', bytes: read.bytes } : refused(read.problem, read.st);
}

/**
 * Reads a sidecar or manifest of the watched folder as UTF-8, with the same containment rules.
 * @returns the text, or null when there is no such file.
 * @throws PermanentError SYMLINK_REFUSED for a link; INVALID_METADATA when not a regular file or over {@link MAX_METADATA_BYTES}.
 */
export async function readMetadataFile(file: string, root: string, where: string): Promise<string | null> {
  let opened: Opened;
  try {
    opened = await openChecked(file, root, where);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if ('problem' in opened) {
    throw new PermanentError(opened.problem.code === 'SYMLINK_REFUSED' ? 'SYMLINK_REFUSED' : 'INVALID_METADATA', opened.problem.message);
  }
  const { fh, st } = opened;
  try {
    if (st.size > MAX_METADATA_BYTES) throw new PermanentError('INVALID_METADATA', `${where} is ${st.size} bytes, over the ${MAX_METADATA_BYTES}-byte limit for metadata`);
    return Buffer.from(await readAt(fh, st.size, 0)).toString('utf8');
  } finally {
    await fh.close();
  }
}
