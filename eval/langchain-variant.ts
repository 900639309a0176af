import type { AvailableVariant } from './variant-types.ts';

/**
 * The LangChain.js peer (bench/peer/langchain-pipeline.ts) as an eval variant: it indexes the
 * run's corpus into its own LanceDB store with the run's embedder, then answers each query with
 * the store's similarity search, top `depth` chunks.
 */
export const langchainVariant: AvailableVariant = {
  name: 'langchain',
  description: 'peer: LangChain.js PDFLoader + RecursiveCharacterTextSplitter (1000/200) + LanceDB similarity search, same embedder',
  available: true,
  create: async ({ embedder, depth, peerCorpus, defer }) => {
    if (!peerCorpus) throw new Error('the langchain variant needs the corpus itself (VariantContext.peerCorpus)');
    // Loaded on use: LangChain's community package is a dev dependency and slow to import.
    const { createLangChainPeer } = await import('../bench/peer/langchain-pipeline.ts');
    const peer = await createLangChainPeer({ embedder });
    defer?.(() => peer.close());
    try {
      const indexed = peerCorpus.kind === 'texts' ? await peer.indexTexts(peerCorpus.docs) : await peer.indexPdfs(peerCorpus.files);
      if (indexed.chunks === 0) throw new Error('the langchain peer indexed no chunk');
    } catch (err) {
      await peer.close();
      throw err;
    }
    return async (query) => ({ chunks: (await peer.search(query.text, depth)).map(({ docId, chunkId, body }) => ({ docId, chunkId, body })) });
  },
};
