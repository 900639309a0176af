export { createS3Bucket } from './s3-bucket.ts';
export { classifyS3Error, createS3Client, isNotFound } from './s3.ts';
