/**
 * SASLprep (RFC 4013) mapping and normalisation for PDF passwords. PDF 2.0 (AES-256, revision 6)
 * requires it, but pdf.js hashes the password exactly as given, so a password such as
 * "SªSL\u00adprep" only opens the file once it is prepared to "SaSLprep".
 */

// RFC 3454 B.1 "commonly mapped to nothing".
const MAPPED_TO_NOTHING = /[\u00AD\u034F\u1806\u180B-\u180D\u200B-\u200D\u2060\uFE00-\uFE0F\uFEFF]/g;
// RFC 3454 C.1.2 non-ASCII spaces, which SASLprep maps to U+0020.
const NON_ASCII_SPACE = /[\u00A0\u1680\u2000-\u200B\u202F\u205F\u3000]/g;

/**
 * Prepares a password with the SASLprep profile (mapping + NFKC). Prohibited-output and bidi
 * checks are not applied: a rejected password would fail to open the file anyway.
 */
export function saslprep(password: string): string {
  return password.replace(MAPPED_TO_NOTHING, '').replace(NON_ASCII_SPACE, ' ').normalize('NFKC');
}
