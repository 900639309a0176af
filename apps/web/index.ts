/**
 * The web app (Preact + Vite): pages Ask, Search, Documents and Trace, the PDF viewer. Its
 * build in dist/ is committed (npm run build:web) and served by the gateway; source-hash.ts
 * tells a build older than its sources.
 * May import core/ and shared/, type-only: the page's bundle holds none of their code.
 * Nothing outside imports this app: the index exports nothing.
 */
export {};
