import { getDocumentProxy } from 'unpdf';
import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import { classifyOpenError, isIncorrectPassword } from './pdf-errors.ts';
import { pdfjsDataPaths } from './pdfjs-data.ts';
import { saslprep } from './saslprep.ts';

// pdf.js VerbosityLevel.ERRORS: the stage is pure, so pdf.js's own warnings stay quiet.
const VERBOSITY_ERRORS = 0;

async function load(data: Uint8Array, password: string | undefined): Promise<PDFDocumentProxy> {
  return getDocumentProxy(data, {
    isEvalSupported: false,
    verbosity: VERBOSITY_ERRORS,
    // Text extraction never needs fonts loaded into a page or scripts run.
    disableFontFace: true,
    enableXfa: false,
    // CJK fonts without ToUnicode are only readable through the predefined CMaps.
    ...pdfjsDataPaths(),
    cMapPacked: true,
    ...(password !== undefined ? { password } : {}),
  });
}

/**
 * Opens a PDF with pdf.js. `data` is handed to pdf.js, which detaches its buffer: pass a copy
 * the caller will not read again. An incorrect non-ASCII password is retried once in its
 * SASLprep form (required by AES-256 revision 6, not applied by pdf.js).
 *
 * @throws PermanentError PASSWORD_REQUIRED, CORRUPT_PDF or TOO_LARGE.
 */
export async function openPdf(data: Uint8Array, password?: string): Promise<PDFDocumentProxy> {
  const prepared = password === undefined ? undefined : saslprep(password);
  const retry = prepared !== undefined && prepared !== password;
  // Only a possible retry needs a second copy, because the first attempt detaches `data`.
  const spare = retry ? data.slice() : undefined;
  try {
    return await load(data, password);
  } catch (err) {
    if (retry && spare && isIncorrectPassword(err)) {
      try {
        return await load(spare, prepared);
      } catch (second) {
        throw classifyOpenError(second, true);
      }
    }
    throw classifyOpenError(err, password !== undefined);
  }
}
