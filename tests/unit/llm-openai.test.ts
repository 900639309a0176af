import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../../shared/errors.ts';
import { createLlm } from '../../shared/llm/index.ts';
import { LLM_UNAVAILABLE_CODE } from '../../shared/llm/llm.ts';
import { createOpenAiChatLlm, type OpenAiChatLlmOptions } from '../../shared/llm/openai-chat-llm.ts';
import { fakeAnswer, startFakeChatServer, type FakeChatServer } from '../contract/llm.fake-server.ts';

let server: FakeChatServer;
beforeAll(async () => {
  server = await startFakeChatServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  for (const key of Object.keys(server.behaviour)) delete server.behaviour[key as keyof typeof server.behaviour];
});

const MESSAGES = [
  { role: 'system' as const, content: 'rules' },
  { role: 'user' as const, content: 'question' },
];

function make(extra: Partial<OpenAiChatLlmOptions> = {}) {
  return createOpenAiChatLlm({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'fake-chat', maxRetries: 0, timeoutMs: 2000, ...extra });
}

async function failure(p: Promise<unknown>): Promise<PermanentError | RetryableError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err === null).toBe(false);
  return err as PermanentError | RetryableError;
}

describe('openai chat llm', () => {
  it('sends model, messages, temperature 0 and max_tokens by default, with the key', async () => {
    const text = await make().complete(MESSAGES);
    expect(text).toBe(fakeAnswer(MESSAGES));
    const req = server.requests[0];
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.authorization).toBe('Bearer sk-test');
    expect(req?.body).toMatchObject({ model: 'fake-chat', messages: MESSAGES, temperature: 0, max_tokens: 800, stream: false });
  });

  it('passes call options and can name the token field max_completion_tokens', async () => {
    await make({ tokenLimitField: 'max_completion_tokens' }).complete(MESSAGES, { maxTokens: 64, temperature: 0.3 });
    const body = server.requests[0]?.body;
    expect(body?.max_completion_tokens).toBe(64);
    expect(body?.max_tokens).toBeUndefined();
    expect(body?.temperature).toBe(0.3);
  });

  it.each([429, 408, 500, 503])('HTTP %i is retryable', async (status) => {
    server.behaviour.status = status;
    const err = await failure(make().complete(MESSAGES));
    expect(err).toBeInstanceOf(RetryableError);
    expect(err.code).toBe(LLM_UNAVAILABLE_CODE);
  });

  it.each([400, 401, 404])('HTTP %i is permanent', async (status) => {
    server.behaviour.status = status;
    const err = await failure(make().complete(MESSAGES));
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.code).toBe(LLM_UNAVAILABLE_CODE);
  });

  it('a timeout is retryable; an answer without text is INVALID_RESULT', async () => {
    server.behaviour.delayMs = 300;
    expect(await failure(make({ timeoutMs: 50 }).complete(MESSAGES))).toBeInstanceOf(RetryableError);
    server.behaviour.delayMs = 0;
    server.behaviour.noChoices = true;
    expect((await failure(make().complete(MESSAGES))).code).toBe('INVALID_RESULT');
  });

  it('an abort mid-call rejects with the caller reason', async () => {
    server.behaviour.delayMs = 300;
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 20);
    await expect(make().complete(MESSAGES, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('createLlm: none is no model; openai needs a model', () => {
    expect(createLlm({ provider: 'none' })).toBeNull();
    expect(createLlm({ provider: 'openai', model: 'm', baseUrl: server.baseURL })?.name).toBe('openai:m');
    expect(() => createLlm({ provider: 'openai', model: '' })).toThrow(PermanentError);
  });
});
