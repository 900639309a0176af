import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../core/failures.ts';
import type { UseCaseDeps } from '../../core/deps.ts';
import { createMcpServer } from './server.ts';

/**
 * `POST /mcp`: the MCP server over streamable HTTP, stateless (a server and transport per
 * request, so any gateway replica can answer any request). Needs a query key like the rest of
 * the API; GET (a server-initiated stream) and DELETE (ending a session) mean nothing without
 * sessions and answer 405.
 */
export async function mcpRoutes(app: FastifyInstance, deps: UseCaseDeps): Promise<void> {
  app.post('/mcp', { config: { role: 'query' }, schema: { summary: 'Model Context Protocol (streamable HTTP, stateless): tools search, ask, get_document, get_chunk, list_documents' } }, async (req, reply) => {
    const server = createMcpServer(deps);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport writes the response itself (JSON, or an event stream for long calls).
    reply.hijack();
    await transport.handleRequest(req.raw, reply.raw, req.body);
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { role: 'query' },
      schema: { hide: true },
      handler: async (_req, reply) => {
        reply.header('allow', 'POST');
        throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'this MCP endpoint is stateless: POST JSON-RPC messages to /mcp');
      },
    });
  }
}
