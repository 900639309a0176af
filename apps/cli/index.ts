/**
 * The quarry command line: bin.ts (its entry; quarry.mjs runs it through tsx, quarry-dist.mjs
 * the compiled dist/), command groups each imported only when named (command-table.ts), the
 * one-process service of quarry dev (service.ts), a private Redis.
 * May import core/ and shared/; the files that run workers in their process also workers/
 * (FACE_ROOTS), and service.ts, demo and mcp the apps they start (COMPOSITION_ROOTS).
 * Nothing outside imports this app: the index exports nothing.
 */
export {};
