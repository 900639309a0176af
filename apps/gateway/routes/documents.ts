import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DocId, docIdForSource, type DocumentMeta } from '../../../shared/domain/index.ts';
import { PermanentError } from '../../../shared/errors.ts';
import { DIR_KEY_PREFIX } from '../../watcher/local-watcher.ts';
import { parseSidecar } from '../../watcher/metadata.ts';
import { PDF_HEADER_WINDOW, sourceProblem } from '../../watcher/source-checks.ts';
import { HttpError } from '../http-errors.ts';
import type { GatewayDeps, GatewayOptions } from '../types.ts';
import { parseOr400 } from '../validate.ts';

/** A plain file name: no directories, no hidden files, ends in .pdf. */
export const UploadName = z
  .string()
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._()-]{0,200}\.pdf$/iu, 'a plain file name ending in .pdf (letters, digits, space, . _ ( ) -)')
  .refine((n) => !n.includes('..'), 'must not contain ".."');

const UploadQuery = z.object({ filename: UploadName }).strict();
const DocParams = z.object({ id: DocId });

async function atomicWrite(file: string, data: Uint8Array | string): Promise<void> {
  // The temp name does not end in .pdf or .meta.json, so the watcher ignores it until the rename.
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.upload`);
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/**
 * The upload's checks, the very ones the watched folder runs on a file (size, `%PDF-` header within
 * the first KiB, sidecar metadata), so a bad file fails with the same code whichever way it came in.
 * @throws PermanentError TOO_LARGE, NOT_A_PDF or INVALID_METADATA.
 */
export function checkUpload(input: { filename: string; bytes: Uint8Array; rawMeta: string | undefined; maxSourceBytes: number }): DocumentMeta | null {
  const { bytes } = input;
  const problem = sourceProblem({ size: bytes.byteLength, head: bytes.subarray(0, PDF_HEADER_WINDOW) }, { maxBytes: input.maxSourceBytes }, input.filename);
  if (problem) throw new PermanentError(problem.code, problem.message);
  // The header is the sidecar's text: parsed as the watcher parses `<name>.meta.json`.
  return input.rawMeta?.trim() ? parseSidecar(input.rawMeta, 'headers.x-quarry-metadata') : null;
}

/** `POST /v1/documents` (into the watched folder), `GET /v1/documents/:id`, `DELETE /v1/documents/:id`. */
export async function documentRoutes(app: FastifyInstance, deps: GatewayDeps, opts: Pick<GatewayOptions, 'maxUploadBytes' | 'maxSourceBytes'>): Promise<void> {
  app.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: opts.maxUploadBytes }, (_req, body, done) => done(null, body));

  app.post(
    '/v1/documents',
    {
      config: { role: 'admin' },
      schema: {
        summary: 'Upload a PDF (body: application/pdf; ?filename=…; metadata as JSON in the X-Quarry-Metadata header)',
        querystring: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
      },
    },
    async (req, reply) => {
      const { filename } = parseOr400(UploadQuery, req.query, 'query');
      // Fastify leaves an empty body undefined: an empty file, as the watcher would see it.
      const bytes = req.body === undefined ? Buffer.alloc(0) : req.body;
      if (!Buffer.isBuffer(bytes)) throw new HttpError(415, 'INVALID_PAYLOAD', 'body: send the PDF bytes with Content-Type: application/pdf');
      const rawMeta = req.headers['x-quarry-metadata'];
      const meta = checkUpload({ filename, bytes, rawMeta: typeof rawMeta === 'string' ? rawMeta : undefined, maxSourceBytes: opts.maxSourceBytes ?? Infinity });
      const target = path.join(deps.watchDir, filename);
      // Sidecar first: the watcher then registers the PDF with its metadata in one go.
      if (meta) await atomicWrite(target.replace(/\.pdf$/i, '.meta.json'), JSON.stringify(meta));
      await atomicWrite(target, bytes);
      const docId = docIdForSource(`${DIR_KEY_PREFIX}${filename}`);
      return reply.status(202).send({ docId, filename, links: { self: `/v1/documents/${docId}` } });
    },
  );

  app.get('/v1/documents/:id', { config: { role: 'query' }, schema: { summary: 'A document’s ingestion status' } }, async (req) => {
    const { id } = parseOr400(DocParams, req.params, 'params');
    const status = await deps.status.get(id);
    if (!status) throw new HttpError(404, 'NOT_FOUND', `no document ${id}`);
    return status;
  });

  app.delete('/v1/documents/:id', { config: { role: 'admin' }, schema: { summary: 'Delete a document, its chunks and (when uploaded) its file' } }, async (req, reply) => {
    const { id } = parseOr400(DocParams, req.params, 'params');
    if (!(await deps.deleteDocument(id))) throw new HttpError(404, 'NOT_FOUND', `no document ${id}`);
    return reply.status(202).send({ docId: id, state: 'deleting' });
  });
}

/** `POST /v1/events/s3`: S3 / MinIO event notifications for the watched bucket, ingested without waiting for a poll. */
export async function bucketEventRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  app.post(
    '/v1/events/s3',
    { config: { role: 'admin' }, schema: { summary: 'S3 / MinIO event notification (Records[].eventName, s3.bucket.name, s3.object.key) for WATCH_BUCKET' } },
    async (req) => {
      if (!deps.bucketNotification) throw new HttpError(404, 'NOT_FOUND', 'no bucket is watched: set WATCH_BUCKET to receive its event notifications');
      return { events: await deps.bucketNotification(req.body) };
    },
  );
}
