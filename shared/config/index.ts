/**
 * Quarry's configuration: every environment variable, read once by loadConfig in a process's
 * main and passed down; bucket URLs (s3://bucket/prefix) and their S3 settings, kept free of the
 * AWS SDK so that loading config does not load it; the package's root folder.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: loadConfig and Config, parseBucketUrl, packageRoot.
 */

export type { BucketLocation, S3Settings } from './bucket-url.ts';
export { loadConfig, type Config, type VectorStoreSettings } from './config.ts';
export { packageRoot } from './package-root.ts';
