export { mcpRoutes } from './http.ts';
export { createMcpServer } from './server.ts';
