/**
 * The HTTP API (Fastify): auth, rate limit, errors, OpenAPI, the routes (query and runs, chat,
 * documents, library, retry, run streams, admin, the web app), and the MCP face at /mcp.
 * May import core/ and shared/, and apps/mcp/ (COMPOSITION_ROOTS); never queues/ or workers/.
 * Entry point: startGateway (imported by quarry dev when it runs the gateway).
 */

export { startGateway } from './start-gateway.ts';
