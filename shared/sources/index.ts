export { createFolderBucket } from './folder-bucket.ts';
export { parseManifest, parseMeta, parseSidecar, readSidecar, sidecarPathOf } from './metadata.ts';
export { checkObjectKey, isPdfKey, isSidecarKey, objectKeyProblem, pdfKeyOfSidecar } from './object-keys.ts';
export { readMetadataFile, readSourceFile } from './safe-read.ts';
export type { SourceBucket, SourceObject } from './source-bucket.ts';
export { MAX_METADATA_BYTES, PDF_HEADER_WINDOW, sourceProblem, unreadVersion, type SourceLimits, type SourceProblem } from './source-checks.ts';
