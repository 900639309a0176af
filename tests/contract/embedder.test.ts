import { createHashEmbedder } from '../../shared/embed/hash-embedder.ts';
import { createOpenAiEmbedder } from '../../shared/embed/openai-embedder.ts';
import { runEmbedderContract } from './embedder.contract.ts';
import { startFakeOpenAiServer } from './fake-openai-server.ts';

runEmbedderContract('hash', async () => ({ embedder: createHashEmbedder(), teardown: async () => undefined }));

runEmbedderContract('openai (local fake /v1/embeddings)', async () => {
  const server = await startFakeOpenAiServer(64);
  // maxBatchSize 2 so the five contract texts span several requests.
  const embedder = createOpenAiEmbedder({ baseURL: server.baseURL, apiKey: 'test', model: 'fake-embed', dimension: 64, maxBatchSize: 2, maxRetries: 0 });
  return { embedder, teardown: () => server.close() };
});
