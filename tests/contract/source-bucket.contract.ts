import { describe, expect, it } from 'vitest';
import type { SourceBucket } from '../../shared/sources/source-bucket.ts';

/** A fresh, empty bucket and how a test puts objects in it (as a user drops files or uploads objects). */
export interface SourceBucketFixture {
  bucket: SourceBucket;
  /** The key the bucket lists for `name` (the S3 adapter lists keys with its prefix). */
  key(name: string): string;
  put(name: string, bytes: Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
}

const pdf = (body: string) => new Uint8Array(Buffer.from(`%PDF-1.7\n${body}\n%%EOF\n`));
const text = (body: string) => new Uint8Array(Buffer.from(body));

/** The one SourceBucket contract: the watched folder and the watched bucket both run it. */
export function runSourceBucketContract(name: string, make: () => Promise<SourceBucketFixture>): void {
  describe(`SourceBucket contract: ${name}`, () => {
    it('lists every object with its size and a tag, subfolders included', async () => {
      const fx = await make();
      await fx.put('a.pdf', pdf('one'));
      await fx.put('sub/b.pdf', pdf('two two'));
      await fx.put('sub/b.meta.json', text('{"doc_type":"faq"}'));
      const listed = (await fx.bucket.list()).sort((x, y) => x.key.localeCompare(y.key));
      expect(listed.map((o) => [o.key, o.size])).toEqual(
        [
          [fx.key('a.pdf'), pdf('one').byteLength],
          [fx.key('sub/b.meta.json'), text('{"doc_type":"faq"}').byteLength],
          [fx.key('sub/b.pdf'), pdf('two two').byteLength],
        ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
      );
      for (const o of listed) expect(o.tag).not.toBe('');
    });

    it('lists nothing for an empty bucket, and forgets a removed object', async () => {
      const fx = await make();
      expect(await fx.bucket.list()).toEqual([]);
      await fx.put('gone.pdf', pdf('x'));
      await fx.remove('gone.pdf');
      expect(await fx.bucket.list()).toEqual([]);
      expect(await fx.bucket.stat(fx.key('gone.pdf'))).toBeNull();
      expect(await fx.bucket.read(fx.key('gone.pdf'), { maxBytes: 1000, pdf: true })).toBeNull();
    });

    it('stats an object as the listing shows it; a changed object gets a new tag', async () => {
      const fx = await make();
      await fx.put('c.pdf', pdf('first'));
      const [listed] = await fx.bucket.list();
      const before = await fx.bucket.stat(fx.key('c.pdf'));
      expect(before).toEqual(listed);
      await fx.put('c.pdf', pdf('second, longer'));
      const after = await fx.bucket.stat(fx.key('c.pdf'));
      expect(after?.size).toBe(pdf('second, longer').byteLength);
      expect(after?.tag).not.toBe(before?.tag);
    });

    it('reads an object whole, with the tag the listing shows', async () => {
      const fx = await make();
      await fx.put('d.pdf', pdf('body'));
      await fx.put('d.meta.json', text('{"lang":"en"}'));
      const [stat] = (await fx.bucket.list()).filter((o) => o.key === fx.key('d.pdf'));
      const read = await fx.bucket.read(fx.key('d.pdf'), { maxBytes: 1000, pdf: true });
      expect(read).toMatchObject({ kind: 'read', size: pdf('body').byteLength, tag: stat?.tag });
      expect(read?.kind === 'read' && Buffer.from(read.bytes).toString()).toBe(Buffer.from(pdf('body')).toString());
      // Metadata is no PDF: read without the header check.
      const meta = await fx.bucket.read(fx.key('d.meta.json'), { maxBytes: 1000, pdf: false });
      expect(meta?.kind === 'read' && Buffer.from(meta.bytes).toString()).toBe('{"lang":"en"}');
    });

    it('refuses an object over the limit (TOO_LARGE) and one without a PDF header (NOT_A_PDF), saying what it saw', async () => {
      const fx = await make();
      await fx.put('big.pdf', pdf('x'.repeat(2000)));
      await fx.put('notes.pdf', text('plain text, no header'));
      await fx.put('junk-first.pdf', new Uint8Array(Buffer.concat([Buffer.from('junk\n'), Buffer.from(pdf('late header'))])));
      const big = await fx.bucket.read(fx.key('big.pdf'), { maxBytes: 1000, pdf: true });
      expect(big).toMatchObject({ kind: 'refused', problem: { code: 'TOO_LARGE' } });
      expect(big?.kind === 'refused' && big.problem.message).toContain(fx.bucket.where(fx.key('big.pdf')));
      const notes = await fx.bucket.read(fx.key('notes.pdf'), { maxBytes: 1000, pdf: true });
      expect(notes).toMatchObject({ kind: 'refused', problem: { code: 'NOT_A_PDF' } });
      // Readers accept junk before the header within the first KiB: so does Quarry.
      expect(await fx.bucket.read(fx.key('junk-first.pdf'), { maxBytes: 1000, pdf: true })).toMatchObject({ kind: 'read' });
    });

    it('names a refused object by what was seen of it, so a fixed one is seen anew', async () => {
      const fx = await make();
      await fx.put('e.pdf', text('not yet a pdf'));
      const first = await fx.bucket.read(fx.key('e.pdf'), { maxBytes: 1000, pdf: true });
      await fx.put('e.pdf', text('still not a pdf, but changed'));
      const second = await fx.bucket.read(fx.key('e.pdf'), { maxBytes: 1000, pdf: true });
      expect(first?.kind === 'refused' && second?.kind === 'refused' && first.seen !== second.seen).toBe(true);
    });
  });
}
