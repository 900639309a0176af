import { createOpenAiChatLlm } from '../../shared/llm/openai-chat-llm.ts';
import { runLlmContract } from './llm.contract.ts';
import { startFakeChatServer } from './llm.fake-server.ts';

runLlmContract('openai (local fake /v1/chat/completions)', async () => {
  const server = await startFakeChatServer();
  const llm = createOpenAiChatLlm({ baseURL: server.baseURL, apiKey: 'test', model: 'fake-chat', maxRetries: 0, timeoutMs: 5000 });
  return { llm, teardown: () => server.close() };
});
