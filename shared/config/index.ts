export type { BucketLocation, S3Settings } from './bucket-url.ts';
export { loadConfig, type Config, type VectorStoreSettings } from './config.ts';
export { packageRoot } from './package-root.ts';
