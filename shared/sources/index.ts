/**
 * The watched source: the SourceBucket port and its folder adapter (the S3 one is in shared/s3/),
 * the checks before a source is read (size, the %PDF- header, no symbolic link), sidecars and
 * manifests, object keys.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: SourceBucket, createFolderBucket, readSourceFile, parseMeta, sourceProblem.
 */

export { createFolderBucket } from './folder-bucket.ts';
export { parseManifest, parseMeta, parseSidecar, readSidecar, sidecarPathOf } from './metadata.ts';
export { checkObjectKey, isPdfKey, isSidecarKey, objectKeyProblem, pdfKeyOfSidecar } from './object-keys.ts';
export { readMetadataFile, readSourceFile } from './safe-read.ts';
export type { SourceBucket, SourceObject } from './source-bucket.ts';
export { MAX_METADATA_BYTES, PDF_HEADER_WINDOW, sourceProblem, unreadVersion, type SourceLimits, type SourceProblem } from './source-checks.ts';
