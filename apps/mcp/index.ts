/**
 * The MCP face: the tools, each a use case of core/ (server.ts), and their transport at /mcp on
 * the gateway (http.ts); quarry mcp serves them over stdio.
 * May import core/ and shared/; never queues/, workers/ or another app.
 * Entry points: createMcpServer, mcpRoutes.
 */

export { mcpRoutes } from './http.ts';
export { createMcpServer } from './server.ts';
