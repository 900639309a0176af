/**
 * The ArtifactStore port (the files of one document version: source.pdf, extracted.json …
 * embeddings.bin) and its adapters: a local directory, an S3 bucket, and the in-memory cache in
 * front of either.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry point: createArtifactStore (the S3 adapter and the AWS SDK are imported on the first read
 * or write of an S3 store), and the ArtifactStore type.
 */

import type { BucketLocation, S3Settings } from '../config/index.ts';
import type { ArtifactStore } from './artifact-store.ts';
import { withArtifactCache } from './cached-artifact-store.ts';
import { createLocalArtifactStore } from './local-artifact-store.ts';

export type { ArtifactJson, ArtifactStore } from './artifact-store.ts';

/**
 * Artifact bytes a process keeps in memory (see withArtifactCache): a small document's artifacts
 * take tens of kilobytes, so this holds the hand-overs of every document in flight while staying
 * a small part of a worker's memory.
 */
export const ARTIFACT_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The S3 artifact store, its module and the AWS SDK imported on first use: the SDK is a large
 * import that a process on local artifacts, or one that has not read an artifact yet, should not
 * wait for at start-up. The client is made once, on that first call.
 */
function lazyS3ArtifactStore(location: BucketLocation, s3: S3Settings): ArtifactStore {
  let store: Promise<ArtifactStore> | null = null;
  const open = () =>
    (store ??= Promise.all([import('../s3/index.ts'), import('./s3-artifact-store.ts')]).then(([{ createS3Client }, { createS3ArtifactStore }]) =>
      createS3ArtifactStore({ client: createS3Client(s3), location }),
    ));
  return {
    putBytes: async (docId, version, name, bytes) => (await open()).putBytes(docId, version, name, bytes),
    getBytes: async (docId, version, name) => (await open()).getBytes(docId, version, name),
    putJson: async (docId, version, name, value) => (await open()).putJson(docId, version, name, value),
    getJson: async (docId, version, name) => (await open()).getJson(docId, version, name),
    exists: async (docId, version, name) => (await open()).exists(docId, version, name),
    listVersions: async (docId) => (await open()).listVersions(docId),
    deleteDoc: async (docId, opts) => (await open()).deleteDoc(docId, opts),
  };
}

/**
 * Opens the artifact store Quarry's config names (`config.artifactStore`, `config.s3`), with an
 * in-memory cache of the artifacts this process wrote or read in front of it.
 */
export function createArtifactStore(settings: { kind: 'local'; dir: string } | { kind: 's3'; location: BucketLocation }, s3: S3Settings): ArtifactStore {
  const store = settings.kind === 's3' ? lazyS3ArtifactStore(settings.location, s3) : createLocalArtifactStore({ dir: settings.dir });
  return withArtifactCache(store, { maxBytes: ARTIFACT_CACHE_BYTES });
}
