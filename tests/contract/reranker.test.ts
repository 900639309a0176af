import { createHttpReranker, type RerankShape } from '../../shared/retrieval/http-reranker.ts';
import { createLexicalReranker } from '../../shared/retrieval/lexical-reranker.ts';
import { runRerankerContract } from './reranker.contract.ts';
import { startFakeRerankServer } from './reranker.fake-server.ts';

runRerankerContract('lexical', async () => ({ reranker: createLexicalReranker(), teardown: async () => undefined }));

for (const shape of ['tei', 'cohere', 'jina'] as const satisfies readonly RerankShape[]) {
  runRerankerContract(`http ${shape} (local fake /rerank)`, async () => {
    const server = await startFakeRerankServer(shape);
    // maxBatchSize 2 so the three-passage cases span two requests.
    const reranker = createHttpReranker({ url: server.url, shape, model: shape === 'tei' ? undefined : 'fake-rerank', timeoutMs: 5000, maxBatchSize: 2 });
    return { reranker, teardown: () => server.close() };
  });
}
