import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The committed build of the web app (apps/web/dist; rebuilt by `npm run build:web`), found from
 * the sources (apps/gateway/routes) or from the compiled tree (dist/apps/gateway/routes), which
 * `npm run build` writes without the web app's files.
 */
export const WEB_DIST_DIR = [new URL('../../web/dist', import.meta.url), new URL('../../../../apps/web/dist', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((dir) => existsSync(path.join(dir, 'index.html'))) ?? fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Where the web app loads pdf.js from: the runtime dependency's own build, not a copy in dist. */
export const PDFJS_PATH = '/vendor/pdfjs/';

/** The pdfjs-dist package folder (its browser build, CMaps and standard fonts). */
export function pdfjsDir(): string {
  return path.dirname(path.dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/build/pdf.min.mjs'))));
}

/**
 * What of pdfjs-dist the browser may fetch: the library and its worker, and the CMaps and
 * standard fonts it needs for PDFs whose fonts are not embedded (common in CJK documents).
 */
export function pdfjsAllowed(p: string): boolean {
  return /^\/build\/pdf(\.worker)?\.min\.mjs$/.test(p) || /^\/(cmaps|standard_fonts)\/[\w.-]+$/.test(p);
}

/**
 * The web app at `/` and pdf.js at `/vendor/pdfjs/`: static files, no key (they hold no data;
 * every API call the app makes carries the key the user typed). Skipped, with the API still
 * served, when the build is missing.
 * @throws Error when pdfjs-dist is not installed.
 */
export async function webRoutes(app: FastifyInstance, distDir = WEB_DIST_DIR): Promise<{ served: boolean }> {
  await app.register(fastifyStatic, { root: pdfjsDir(), prefix: PDFJS_PATH, decorateReply: false, allowedPath: pdfjsAllowed });
  if (!existsSync(path.join(distDir, 'index.html'))) return { served: false };
  // Hashed asset names never change content: cache them; index.html is checked on every load.
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: false,
    decorateReply: false,
    setHeaders: (res, file) => res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
  return { served: true };
}
