import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { documentStatus, uploadToFolder } from '../../../core/documents/index.ts';
import { HttpError } from '../../../core/failures.ts';
import { UploadName } from '../../../core/schemas.ts';
import { DocId } from '../../../shared/domain/index.ts';
import type { GatewayDeps, GatewayOptions } from '../types.ts';
import { parseOr400 } from '../validate.ts';

const UploadQuery = z.object({ filename: UploadName }).strict();
const DocParams = z.object({ id: DocId });

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
      const { docId } = await uploadToFolder({ watchDir: deps.watchDir, filename, bytes, rawMeta: typeof rawMeta === 'string' ? rawMeta : undefined, maxSourceBytes: opts.maxSourceBytes ?? Infinity });
      return reply.status(202).send({ docId, filename, links: { self: `/v1/documents/${docId}` } });
    },
  );

  app.get('/v1/documents/:id', { config: { role: 'query' }, schema: { summary: 'A document’s ingestion status' } }, async (req) => {
    const { id } = parseOr400(DocParams, req.params, 'params');
    return documentStatus(deps, id);
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
