export { createDocumentDeleter } from './delete.ts';
export { createDocumentLibrary, documentStatus, getDocument, listDocuments, storedPdf } from './read.ts';
export { retryDocument, retryFailedDocuments, type RetryOutcome, type RetryPorts } from './retry.ts';
export { uploadToFolder } from './upload.ts';
