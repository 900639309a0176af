/**
 * Sources into documents: registering one (register-source.ts), removing one, the source keys
 * of the folder and the bucket, keeping a watched bucket in step through the SourceBucket port
 * (bucket-sync.ts: the ETag cursor, event notifications).
 * May import shared/ and queues/; never apps/ or workers/.
 * Entry points: registerSource and registerFile, deleteSource, createBucketSource,
 * listFolderSourceKeys.
 */

export { createBucketSource, type BucketEvent, type BucketSource } from './bucket-sync.ts';
export { deleteSource } from './delete-source.ts';
export { recordRejectedSource, registerFile, registerSource, type RegisterPorts, type RegisterResult } from './register-source.ts';
export { DIR_KEY_PREFIX, listFolderSourceKeys, S3_KEY_PREFIX } from './source-keys.ts';
