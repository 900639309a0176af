/**
 * The checks run on a source before its bytes are read (size, `%PDF-` header), and the folder
 * reader that never follows a symbolic link nor reads outside the watched folder.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { rename, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBodyCapped } from '../../shared/s3/s3-bucket.ts';
import { readSidecar } from '../../shared/sources/metadata.ts';
import { readMetadataFile, readSourceFile } from '../../shared/sources/safe-read.ts';
import { hasPdfHeader, isInside, MAX_METADATA_BYTES, sourceProblem, unreadVersion } from '../../shared/sources/source-checks.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';

const tempDir = tempDirs('quarry-source-checks-');
const MiB = 1024 * 1024;
const LIMITS = { maxBytes: 100 * MiB };
const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj\n', 'latin1');

/** A watched folder and, beside it, a folder it must never read from (with a secret in it). */
function folders(): { root: string; outside: string } {
  const base = realpathSync(tempDir());
  const root = path.join(base, 'inbox');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.pdf'), Buffer.concat([PDF, Buffer.from('TOP SECRET')]));
  writeFileSync(path.join(outside, 'meta.json'), JSON.stringify({ doc_type: 'secret' }));
  return { root, outside };
}

describe('source checks before reading', () => {
  it('refuses a size over the limit from the size alone, and a head without %PDF- in its first KiB', () => {
    expect(sourceProblem({ size: 100 * MiB + 1 }, LIMITS, 'x.pdf')).toMatchObject({ code: 'TOO_LARGE', message: expect.stringMatching(/x\.pdf is 104857601 bytes, over the 104857600-byte limit/) });
    expect(sourceProblem({ size: 100 * MiB }, LIMITS, 'x.pdf')).toBeNull();
    expect(sourceProblem({ size: 5, head: Buffer.from('hello') }, LIMITS, 'x.pdf')).toMatchObject({ code: 'NOT_A_PDF' });
    expect(sourceProblem({ size: 0, head: new Uint8Array() }, LIMITS, 'x.pdf')).toMatchObject({ code: 'NOT_A_PDF', message: 'x.pdf is empty' });
    expect(sourceProblem({ size: PDF.length, head: PDF }, LIMITS, 'x.pdf')).toBeNull();
    // Readers accept junk before the header within the first KiB, not after it.
    const late = (offset: number) => Buffer.concat([Buffer.alloc(offset, 0x20), PDF]);
    expect(hasPdfHeader(late(1000))).toBe(true);
    expect(hasPdfHeader(late(1020))).toBe(false);
  });

  it('names an unread version by what was seen, and tells inside from outside', () => {
    expect(unreadVersion('TOO_LARGE', '1|2')).toMatch(/^[0-9a-f]{64}$/);
    expect(unreadVersion('TOO_LARGE', '1|2')).not.toBe(unreadVersion('TOO_LARGE', '1|3'));
    expect(isInside('/w/in', '/w/in/a/b.pdf')).toBe(true);
    expect(isInside('/w/in', '/w/in')).toBe(true);
    expect(isInside('/w/in', '/w/inbox/a.pdf')).toBe(false);
    expect(isInside('/w/in', '/w/out/a.pdf')).toBe(false);
    expect(isInside('/w/in', '/w/in/..foo.pdf')).toBe(true);
  });
});

describe('reading from the watched folder', () => {
  it('reads a regular PDF inside the folder', async () => {
    const { root } = folders();
    writeFileSync(path.join(root, 'ok.pdf'), PDF);
    const read = await readSourceFile(path.join(root, 'ok.pdf'), { root, ...LIMITS, where: 'ok.pdf' });
    expect(read.kind === 'read' && Buffer.from(read.bytes).equals(PDF)).toBe(true);
  });

  it('never follows a link: to a file outside, to a file inside, or through a linked directory', async () => {
    const { root, outside } = folders();
    symlinkSync(path.join(outside, 'secret.pdf'), path.join(root, 'passwd-link.pdf'));
    writeFileSync(path.join(root, 'real.pdf'), PDF);
    symlinkSync(path.join(root, 'real.pdf'), path.join(root, 'inner-link.pdf'));
    symlinkSync(outside, path.join(root, 'linked-dir'));
    for (const name of ['passwd-link.pdf', 'inner-link.pdf', 'linked-dir/secret.pdf']) {
      const read = await readSourceFile(path.join(root, name), { root, ...LIMITS, where: name });
      expect(read, name).toMatchObject({ kind: 'refused', code: 'SYMLINK_REFUSED', version: expect.stringMatching(/^[0-9a-f]{64}$/) });
    }
  });

  // A plain lstat-then-read fails this within a few hundred tries (checked by weakening safe-read.ts).
  it('never reads through a link swapped in for the file while it is being checked and opened', async () => {
    const { root, outside } = folders();
    const target = path.join(root, 'swapped.pdf');
    await writeFile(target, PDF);
    let stop = false;
    // Atomically replaces the file by a link to the secret and back, as fast as the event loop allows.
    const swapper = (async () => {
      for (let i = 0; !stop; i++) {
        const tmp = path.join(root, `.swap-${i}`);
        if (i % 2 === 0) await symlink(path.join(outside, 'secret.pdf'), tmp);
        else await writeFile(tmp, PDF);
        await rename(tmp, target);
      }
    })();
    try {
      for (let i = 0; i < 300; i++) {
        const read = await readSourceFile(target, { root, ...LIMITS, where: 'swapped.pdf' }).catch((err: Error) => err);
        if (read instanceof Error) expect(read.message).toMatch(/kept being replaced/);
        else if (read.kind === 'read') expect(Buffer.from(read.bytes).equals(PDF)).toBe(true);
        else expect(read.code).toBe('SYMLINK_REFUSED');
      }
    } finally {
      stop = true;
      await swapper;
    }
  });

  it('refuses sparse 300 MB and 3 GiB files by their size without reading them', async () => {
    const { root } = folders();
    const rssBefore = process.memoryUsage().rss;
    for (const [name, size] of [['big.pdf', 300 * 1000 * 1000], ['huge.pdf', 3 * 1024 * MiB]] as const) {
      const file = path.join(root, name);
      await writeFile(file, PDF);
      await truncate(file, size); // sparse: no disk used
      const read = await readSourceFile(file, { root, ...LIMITS, where: name });
      expect(read).toMatchObject({ kind: 'refused', code: 'TOO_LARGE', message: expect.stringContaining(`${name} is ${size} bytes`) });
    }
    // Reading either would have grown the process by hundreds of MB.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * MiB);
  });

  it('refuses bytes that are no PDF under a .pdf name, and a directory named .pdf', async () => {
    const { root } = folders();
    writeFileSync(path.join(root, 'notes.pdf'), 'just some text, no header');
    mkdirSync(path.join(root, 'folder.pdf'));
    expect(await readSourceFile(path.join(root, 'notes.pdf'), { root, ...LIMITS, where: 'notes.pdf' })).toMatchObject({ kind: 'refused', code: 'NOT_A_PDF' });
    expect(await readSourceFile(path.join(root, 'folder.pdf'), { root, ...LIMITS, where: 'folder.pdf' })).toMatchObject({ kind: 'refused', code: 'NOT_A_PDF' });
  });

  it('follows a link named on the command line (root null), with the size and type checks', async () => {
    const { root, outside } = folders();
    symlinkSync(path.join(outside, 'secret.pdf'), path.join(root, 'link.pdf'));
    const read = await readSourceFile(path.join(root, 'link.pdf'), { root: null, ...LIMITS, where: 'link.pdf' });
    expect(read.kind).toBe('read');
    expect(await readSourceFile(path.join(root, 'link.pdf'), { root: null, maxBytes: 10, where: 'link.pdf' })).toMatchObject({ kind: 'refused', code: 'TOO_LARGE' });
  });

  it('never reads a sidecar or manifest through a link, nor one over 1 MiB', async () => {
    const { root, outside } = folders();
    writeFileSync(path.join(root, 'a.pdf'), PDF);
    symlinkSync(path.join(outside, 'meta.json'), path.join(root, 'a.meta.json'));
    await expect(readSidecar(path.join(root, 'a.pdf'), root)).rejects.toMatchObject({ code: 'SYMLINK_REFUSED' });
    symlinkSync(path.join(outside, 'meta.json'), path.join(root, 'batch.jsonl'));
    await expect(readMetadataFile(path.join(root, 'batch.jsonl'), root, 'batch.jsonl')).rejects.toMatchObject({ code: 'SYMLINK_REFUSED' });
    writeFileSync(path.join(root, 'b.meta.json'), ' '.repeat(MAX_METADATA_BYTES + 1));
    await expect(readSidecar(path.join(root, 'b.pdf'), root)).rejects.toMatchObject({ code: 'INVALID_METADATA', message: expect.stringMatching(/over the 1048576-byte limit/) });
    expect(await readMetadataFile(path.join(root, 'none.jsonl'), root, 'none.jsonl')).toBeNull();
  });
});

describe('reading an object body', () => {
  /** A body of `count` chunks of `size` bytes that counts how many were pulled. */
  function body(count: number, size: number, first = PDF): { chunks: AsyncIterable<Uint8Array>; pulled: () => number } {
    let pulled = 0;
    async function* gen() {
      for (let i = 0; i < count; i++) {
        pulled++;
        yield i === 0 ? Buffer.concat([first, Buffer.alloc(size - first.length)]) : Buffer.alloc(size);
      }
    }
    return { chunks: gen(), pulled: () => pulled };
  }
  const checkHead = (head: Uint8Array) => sourceProblem({ size: 1, head }, LIMITS, 'x.pdf');

  it('stops at the first chunk over the limit (an object replaced by a bigger one after the listing)', async () => {
    const b = body(1000, 64 * 1024);
    expect(await readBodyCapped(b.chunks, 256 * 1024, checkHead)).toEqual({ kind: 'over', seen: 5 * 64 * 1024 });
    expect(b.pulled()).toBe(5);
  });

  it('stops after the first KiB when it has no PDF header, and reads a PDF whole', async () => {
    const junk = body(1000, 4096, Buffer.from('hello'));
    expect(await readBodyCapped(junk.chunks, 100 * MiB, checkHead)).toMatchObject({ kind: 'problem', problem: { code: 'NOT_A_PDF' } });
    expect(junk.pulled()).toBe(1);
    const pdf = body(3, 4096);
    const read = await readBodyCapped(pdf.chunks, 100 * MiB, checkHead);
    expect(read.kind === 'read' && read.bytes.byteLength).toBe(3 * 4096);
    expect(await readBodyCapped([Buffer.from('tiny')], 100 * MiB, checkHead)).toMatchObject({ kind: 'problem', problem: { code: 'NOT_A_PDF' } });
  });
});
