import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake should do with the next requests (tests flip these between calls). */
export interface FakeChatBehaviour {
  /** Answer with this HTTP status and an OpenAI-shaped error body. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer with no choices. */
  noChoices?: boolean;
  /** Answer with this text instead of {@link fakeAnswer} (e.g. a reply full of links). */
  reply?: string;
}

export interface RecordedChatRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    temperature?: number;
    max_tokens?: number;
    max_completion_tokens?: number;
    stream?: boolean;
  };
}

export interface FakeChatServer {
  /** Base URL including `/v1`. */
  baseURL: string;
  requests: RecordedChatRequest[];
  behaviour: FakeChatBehaviour;
  close(): Promise<void>;
}

/** The fake's deterministic answer to a conversation: it quotes the length of the last message. */
export function fakeAnswer(messages: ReadonlyArray<{ content: string }>): string {
  return `fake answer (${messages.length} messages, last ${messages.at(-1)?.content.length ?? 0} chars) [1]`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Starts a local server on 127.0.0.1 (random port) speaking `POST /v1/chat/completions`. */
export async function startFakeChatServer(): Promise<FakeChatServer> {
  const requests: RecordedChatRequest[] = [];
  const behaviour: FakeChatBehaviour = {};
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await readBody(req);
      const send = (status: number, payload: unknown) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: { message: 'not found' } });
      const body = JSON.parse(raw) as RecordedChatRequest['body'];
      requests.push({ path: req.url, authorization: req.headers.authorization, body });
      if (behaviour.delayMs) await new Promise((r) => setTimeout(r, behaviour.delayMs));
      if (behaviour.status) return send(behaviour.status, { error: { message: `fake ${behaviour.status}`, type: 'fake', code: null } });
      const choices = behaviour.noChoices
        ? []
        : [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: behaviour.reply ?? fakeAnswer(body.messages) } }];
      send(200, { id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: body.model, choices, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    behaviour,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
