import { createS3Client, type BucketLocation, type S3Settings } from '../s3/s3.ts';
import type { ArtifactStore } from './artifact-store.ts';
import { createLocalArtifactStore } from './local-artifact-store.ts';
import { createS3ArtifactStore } from './s3-artifact-store.ts';

export * from './artifact-store.ts';

/** Opens the artifact store Quarry's config names (`config.artifactStore`, `config.s3`). */
export function createArtifactStore(settings: { kind: 'local'; dir: string } | { kind: 's3'; location: BucketLocation }, s3: S3Settings): ArtifactStore {
  return settings.kind === 's3' ? createS3ArtifactStore({ client: createS3Client(s3), location: settings.location }) : createLocalArtifactStore({ dir: settings.dir });
}
