import { PermanentError } from '../errors.ts';

/** pdf.js PasswordResponses: why a password was rejected. */
export const PASSWORD_NEEDED = 1;
export const PASSWORD_INCORRECT = 2;

interface PdfJsErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
}

function shape(err: unknown): PdfJsErrorShape {
  return typeof err === 'object' && err !== null ? (err as PdfJsErrorShape) : {};
}

/** The pdf.js exception name (PasswordException, InvalidPDFException, FormatError, ...), if any. */
export function pdfErrorName(err: unknown): string {
  const name = shape(err).name;
  return typeof name === 'string' ? name : '';
}

/** A readable reason for any thrown value, for error messages. */
export function reasonOf(err: unknown): string {
  const { name, message } = shape(err);
  const text = typeof message === 'string' && message ? message : String(err);
  return typeof name === 'string' && name && name !== 'Error' ? `${name}: ${text}` : text;
}

/** True when pdf.js refused the document for want of the right password. */
export function isPasswordError(err: unknown): boolean {
  return pdfErrorName(err) === 'PasswordException';
}

/** True when pdf.js rejected a password that was given (as opposed to none given). */
export function isIncorrectPassword(err: unknown): boolean {
  return isPasswordError(err) && shape(err).code === PASSWORD_INCORRECT;
}

/**
 * Maps a failure to open a PDF onto a Quarry error. Every parse failure is permanent: the same
 * bytes fail the same way on retry.
 */
export function classifyOpenError(err: unknown, passwordGiven: boolean): PermanentError {
  if (err instanceof PermanentError) return err;
  if (isPasswordError(err)) {
    const message =
      isIncorrectPassword(err) || passwordGiven
        ? 'The PDF is encrypted and the password given is incorrect; set the correct user password in the document metadata `password` field.'
        : 'The PDF is encrypted with a user password and none was given; set it in the document metadata `password` field.';
    return new PermanentError('PASSWORD_REQUIRED', message, { cause: err });
  }
  if (err instanceof RangeError && /allocat|memory/i.test(err.message)) {
    return new PermanentError('TOO_LARGE', `PDF needs more memory than allowed: ${err.message}`, { cause: err });
  }
  return new PermanentError('CORRUPT_PDF', `PDF could not be parsed (${reasonOf(err)})`, { cause: err });
}
