import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { askAndWait } from '../../core/ask/index.ts';
import { getChunk } from '../../core/chunks.ts';
import type { UseCaseDeps } from '../../core/deps.ts';
import { getDocument, listDocuments } from '../../core/documents/index.ts';
import { clientFailure } from '../../core/failures.ts';
import { searchPassages } from '../../core/search.ts';
import {
  AskRequest,
  AskResult,
  ChunkRequest,
  ChunkResult,
  DocumentRequest,
  DocumentResult,
  ListDocumentsRequest,
  ListDocumentsResult,
  SearchRequest,
  SearchResult,
} from '../../core/schemas.ts';

/** What the tools call: the use cases' dependencies (core/deps.ts). */
export type McpDeps = UseCaseDeps;

/** Names of the tools {@link createMcpServer} registers. */
export const MCP_TOOLS = ['search', 'ask', 'get_document', 'get_chunk', 'list_documents'] as const;

/**
 * A tool's result: the value as `structuredContent` and as JSON text (for clients that read only
 * text), or a tool error whose text starts with the Quarry error code, as the HTTP API names it
 * (also in `_meta['quarry/error']`).
 */
async function toolResult(run: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    const value = await run();
    return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] };
  } catch (err) {
    // The same mapping as the HTTP API: codes as they are, internal messages withheld.
    const error = clientFailure(err);
    // No structuredContent: clients check it against the tool's output schema, even on errors.
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }], _meta: { 'quarry/error': { code: error.code, message: error.message } } };
  }
}

/**
 * The Quarry MCP server: search, ask, get_document, get_chunk and list_documents, with inputs
 * parsed by the same zod schemas as the HTTP API. One server per connection (stdio) or per
 * request (stateless streamable HTTP).
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: 'quarry', version: '0.1.0' });
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  server.registerTool(
    'search',
    {
      title: 'Hybrid search',
      description:
        'Hybrid (keyword + vector) search over the indexed PDF passages. Filters: docType, jurisdiction, lang (lists, any of), asOf (YYYY-MM-DD: only passages valid that day). alpha 0 = keyword only, 1 = vector only. Each hit has doc id, title, section path, pages, validity and scores (fused, keyword, vector).',
      inputSchema: SearchRequest,
      outputSchema: SearchResult,
      annotations: readOnly,
    },
    (args) => toolResult(() => searchPassages(deps, args)),
  );
  server.registerTool(
    'ask',
    {
      title: 'Ask a question',
      description:
        'Asks the Quarry agent a question (optionally as of a date, YYYY-MM-DD) and waits for its answer: text with numbered citations [n], each citation with document, section path, pages and validity, and a date qualifier.',
      inputSchema: AskRequest,
      outputSchema: AskResult,
      annotations: readOnly,
    },
    (args) => toolResult(() => askAndWait(deps, args)),
  );
  server.registerTool(
    'get_document',
    {
      title: 'Get a document',
      description: 'A document by id: its ingestion status (state, stage, pages, chunks, errors) and its indexed record (title, type, jurisdiction, language, validity, profile).',
      inputSchema: DocumentRequest,
      outputSchema: DocumentResult,
      annotations: readOnly,
    },
    (args) => toolResult(() => getDocument(deps, args.docId)),
  );
  server.registerTool(
    'get_chunk',
    {
      title: 'Get a passage with its context',
      description: 'A chunk by id (e.g. a citation’s chunkId) with up to `neighbours` chunks before and after it in the same document, for reading a passage in context.',
      inputSchema: ChunkRequest,
      outputSchema: ChunkResult,
      annotations: readOnly,
    },
    (args) => toolResult(() => getChunk(deps, args)),
  );
  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description: 'The registered documents, a page at a time (offset, limit): title, state, stage, pages, chunks and any error.',
      inputSchema: ListDocumentsRequest,
      outputSchema: ListDocumentsResult,
      annotations: readOnly,
    },
    (args) => toolResult(() => listDocuments(deps, args)),
  );
  return server;
}
