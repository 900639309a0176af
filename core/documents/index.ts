/**
 * The documents as the faces show and change them: read (status, list, stored PDF), upload into
 * the watched folder, retry, delete (with the source in the watched folder or bucket; the AWS
 * SDK is imported on the first bucket deletion).
 * May import shared/, queues/, core/'s top-level files and core/sources/; never apps/ or workers/.
 * Entry points: createDocumentLibrary, storedPdf, uploadToFolder, retryDocument,
 * createDocumentDeleter.
 */

export { createDocumentDeleter } from './delete.ts';
export { createDocumentLibrary, documentStatus, getDocument, listDocuments, storedPdf } from './read.ts';
export { retryDocument, retryFailedDocuments, type RetryOutcome, type RetryPorts } from './retry.ts';
export { uploadToFolder } from './upload.ts';
