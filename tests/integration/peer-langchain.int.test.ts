import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLangChainPeer, PEER_NAME, QuarryEmbeddings } from '../../bench/peer/langchain-pipeline.ts';
import { benchPeer } from '../../bench/peer/peer-bench.ts';
import { langchainVariant } from '../../eval/langchain-variant.ts';
import { selectVariants, VARIANTS, type VariantContext } from '../../eval/variants.ts';
import { createHashEmbedder } from '../../shared/embed/index.ts';
import type { VectorStore } from '../../shared/store/index.ts';
import { textPdf } from '../fixtures/pdf-builders.ts';

const embedder = createHashEmbedder({ dimension: 256 });

// Two documents on unrelated topics; the second has a second page that alone holds the answer.
const VOLCANO = [['Basalt lava flows from shield volcanoes', 'Magma chambers feed eruptions on Hawaii.']];
const BAKERY = [
  ['Sourdough bread needs a starter culture', 'Flour and water ferment for days.'],
  ['The oven bakes loaves at high temperature', 'A crisp crust forms on the rye loaf.'],
];

describe('the LangChain.js peer pipeline', () => {
  let dir: string;
  let files: { docId: string; path: string }[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'quarry-peer-test-'));
    files = [];
    for (const [name, pages] of [['volcano.pdf', VOLCANO], ['bakery.pdf', BAKERY]] as const) {
      const file = path.join(dir, name);
      await writeFile(file, await textPdf(pages.map((p) => [...p])));
      files.push({ docId: name, path: file });
    }
    // Quarry's pdf.js runs first, as in the bench and the filings eval: its in-process worker is a
    // process global the peer's loader must be able to share.
    const pdf = await getDocumentProxy(await textPdf([['warm up']]), { isEvalSupported: false });
    await (await pdf.getPage(1)).getTextContent();
    await pdf.destroy();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('wraps the Quarry embedder as LangChain Embeddings (same vectors, plain arrays)', async () => {
    const lc = new QuarryEmbeddings(embedder);
    const [direct] = await embedder.embed(['shield volcano']);
    expect(await lc.embedQuery('shield volcano')).toEqual(Array.from(direct ?? []));
    expect((await lc.embedDocuments(['a b', 'c d'])).map((v) => v.length)).toEqual([256, 256]);
  });

  it('loads 2 PDFs through PDFLoader, stores them in LanceDB and retrieves the right one', async () => {
    const peer = await createLangChainPeer({ embedder, tmpRoot: dir });
    try {
      const indexed = await peer.indexPdfs(files);
      expect(indexed).toMatchObject({ documents: 2, pages: 3, failed: [] });
      expect(indexed.chunks).toBeGreaterThanOrEqual(3);
      const volcano = await peer.search('magma eruption of shield volcanoes', 2);
      expect(volcano[0]?.docId).toBe('volcano.pdf');
      expect(volcano[0]?.body).toContain('Magma chambers');
      const crust = await peer.search('crisp crust of the rye loaf in the oven', 3);
      expect(crust[0]).toMatchObject({ docId: 'bakery.pdf', chunkId: 'bakery.pdf#1' });
      expect(crust[0]?.body).toContain('rye loaf');
    } finally {
      await peer.close();
    }
  });

  it('lists a PDF the loader cannot read as failed and indexes the rest', async () => {
    const broken = path.join(dir, 'broken.pdf');
    await writeFile(broken, 'not a pdf at all');
    const peer = await createLangChainPeer({ embedder, tmpRoot: dir });
    try {
      const indexed = await peer.indexPdfs([{ docId: 'broken.pdf', path: broken }, files[0] as { docId: string; path: string }]);
      expect(indexed.documents).toBe(1);
      expect(indexed.failed.map((f) => f.docId)).toEqual(['broken.pdf']);
    } finally {
      await peer.close();
    }
  });

  it('is the eval registry’s `langchain` variant: indexes texts and answers in the other modes’ shape', async () => {
    expect(VARIANTS.map((v) => v.name)).toContain('langchain');
    expect(selectVariants(['langchain']).map((v) => v.name)).toEqual(['langchain']);
    const disposals: (() => Promise<void>)[] = [];
    const ctx: VariantContext = {
      // The peer never touches Quarry's store; a store that throws proves it.
      store: new Proxy({} as VectorStore, { get: () => { throw new Error('the peer must not use the Quarry store'); } }),
      embedder,
      depth: 2,
      peerCorpus: {
        kind: 'texts',
        docs: [
          { docId: 'd1', text: 'Basalt lava flows from shield volcanoes.' },
          { docId: 'd2', text: 'Sourdough bread needs a starter culture.' },
          { docId: 'd3', text: 'Rye loaves bake in a hot oven.' },
        ],
      },
      defer: (dispose) => disposals.push(dispose),
    };
    const retrieve = await langchainVariant.create(ctx);
    const r = await retrieve({ id: 'q1', text: 'sourdough starter culture', vector: new Float32Array(256) });
    expect(r.chunks).toHaveLength(2);
    expect(r.chunks[0]).toEqual({ docId: 'd2', chunkId: 'd2#0', body: 'Sourdough bread needs a starter culture.' });
    expect(r.answer).toBeUndefined();
    expect(disposals).toHaveLength(1);
    for (const d of disposals) await d();
    await expect(Promise.resolve(langchainVariant.create({ ...ctx, peerCorpus: undefined }))).rejects.toThrow(/needs the corpus/);
  });
});

describe('the ingest bench’s peer figures', () => {
  it('counts every page of the PDFs, blank ones too, and reports pages/s', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quarry-peer-bench-'));
    try {
      const file = path.join(dir, 'blank-middle.pdf');
      await writeFile(file, await textPdf([['Granite quarries near the river'], [], ['Marble slabs are cut by wire saws']]));
      const f = await benchPeer([file], { embedder, tmpRoot: dir });
      expect(f).toMatchObject({ name: PEER_NAME, pages: 3, chunks: 2, failedFiles: 0 });
      expect(f.pagesPerSec).toBeGreaterThan(0);
      expect(readdirSync(dir)).toEqual(['blank-middle.pdf']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
