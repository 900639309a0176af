import { afterAll, beforeAll, describe } from 'vitest';
import { createS3ArtifactStore } from '../../shared/artifacts/s3-artifact-store.ts';
import { parseBucketUrl } from '../../shared/config/bucket-url.ts';
import { createS3Client } from '../../shared/s3/s3.ts';
import { startTestS3, type TestS3 } from '../helpers/s3.ts';
import { runArtifactStoreContract } from './artifact-store.contract.ts';

describe('S3 artifact store (s3rver)', () => {
  let s3: TestS3;
  let n = 0;
  beforeAll(async () => {
    s3 = await startTestS3(['quarry-artifacts']);
  });
  afterAll(async () => {
    await s3?.stop();
  });
  // Each store gets a prefix of its own in the one bucket, as installs sharing a bucket would.
  runArtifactStoreContract('s3 bucket', async () =>
    createS3ArtifactStore({ client: createS3Client(s3.settings), location: parseBucketUrl(`s3://quarry-artifacts/run-${++n}/artifacts`, 'ARTIFACT_BUCKET') }),
  );
});
