export { createBucketSource, type BucketEvent, type BucketSource } from './bucket-sync.ts';
export { deleteSource } from './delete-source.ts';
export { recordRejectedSource, registerFile, registerSource, type RegisterPorts, type RegisterResult } from './register-source.ts';
export { DIR_KEY_PREFIX, listFolderSourceKeys, S3_KEY_PREFIX } from './source-keys.ts';
