/**
 * Everything that talks to S3 through the AWS SDK: the one client factory, the classification of
 * S3 failures, and the bucket's SourceBucket adapter. Importing this index loads the SDK: its
 * importers load it on first use (dynamic import) or already do (the gateway).
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: createS3Client, classifyS3Error, isNotFound, createS3Bucket.
 */

export { createS3Bucket } from './s3-bucket.ts';
export { classifyS3Error, createS3Client, isNotFound } from './s3.ts';
