import { loadConfig } from '../../shared/config/config.ts';
import { createEmbedder, type Embedder } from '../../shared/embed/index.ts';
import { createLangChainPeer, PEER_NAME } from './langchain-pipeline.ts';

/** The peer's figures beside a corpus's Quarry figures in the ingest bench JSON. */
export interface PeerFigures {
  name: string;
  /** PDF pages loaded, split, embedded and stored per second (one process, files one after another). */
  pagesPerSec: number;
  pages: number;
  chunks: number;
  /** Files the peer's loader could not read. */
  failedFiles: number;
}

/**
 * Runs the LangChain.js peer (bench/peer/langchain-pipeline.ts) over `files` into a fresh LanceDB
 * directory and times it from the first load to the last store write. The embedder defaults to
 * the one the bench's Quarry stages get (the default config: `hash`), so both pay the same
 * embedding cost.
 *
 * @throws whatever the store throws; a file the loader cannot read is counted, not thrown.
 */
export async function benchPeer(files: readonly string[], opts: { embedder?: Embedder; tmpRoot?: string } = {}): Promise<PeerFigures> {
  const embedder = opts.embedder ?? createEmbedder(loadConfig({}).embedder);
  const peer = await createLangChainPeer({ embedder, ...(opts.tmpRoot !== undefined ? { tmpRoot: opts.tmpRoot } : {}) });
  try {
    const t0 = performance.now();
    const r = await peer.indexPdfs(files.map((file) => ({ docId: file, path: file })));
    const ms = performance.now() - t0;
    return { name: PEER_NAME, pagesPerSec: Math.round((r.pages / (ms / 1000)) * 10) / 10, pages: r.pages, chunks: r.chunks, failedFiles: r.failed.length };
  } finally {
    await peer.close();
  }
}
