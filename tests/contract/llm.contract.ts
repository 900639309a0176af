import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentError } from '../../shared/errors.ts';
import type { ChatMessage, Llm } from '../../shared/llm/llm.ts';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'Answer in one short sentence.' },
  { role: 'user', content: 'What is 2 + 2?' },
];

/**
 * The Llm contract. `setup` returns a ready model and a teardown; every adapter must pass it.
 * Content is not checked (a real model's wording is its own), only the port's promises.
 */
export function runLlmContract(name: string, setup: () => Promise<{ llm: Llm; teardown(): Promise<void> }>): void {
  describe(`Llm contract: ${name}`, () => {
    let llm: Llm;
    let teardown: () => Promise<void>;
    beforeAll(async () => {
      ({ llm, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
    });

    it('names itself', () => {
      expect(llm.name.length).toBeGreaterThan(0);
    });

    it('completes a chat with non-empty text', async () => {
      const text = await llm.complete(MESSAGES, { maxTokens: 32, temperature: 0 });
      expect(typeof text).toBe('string');
      expect(text.trim().length).toBeGreaterThan(0);
    });

    it('refuses an empty conversation with PermanentError INVALID_PAYLOAD', async () => {
      const err = await llm.complete([]).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(PermanentError);
      expect((err as PermanentError).code).toBe('INVALID_PAYLOAD');
    });

    it('rejects with the reason of an already aborted signal', async () => {
      const controller = new AbortController();
      const reason = new Error('caller gave up');
      controller.abort(reason);
      await expect(llm.complete(MESSAGES, { signal: controller.signal })).rejects.toBe(reason);
    });
  });
}
