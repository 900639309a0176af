import { execFileSync, spawnSync } from 'node:child_process';

/** Poppler's pdftotext, the independent extractor page truth is checked against (.ci/run installs poppler-utils). */
export const HAVE_PDFTOTEXT = spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).status === 0;
if (!HAVE_PDFTOTEXT) console.warn('skipping the pdftotext page checks: pdftotext is not installed (apt-get install poppler-utils)');

/** Letters and digits only, lower-cased, NFKC: what two extractors agree on whatever their spacing and reading order. */
export function squashText(text: string): string {
  return text.normalize('NFKC').replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();
}

/**
 * A PDF's pages as pdftotext reads them, squashed (see squashText), each page's text in both of
 * its orders (raw reading order and -layout) so a line is found whichever way a table is read.
 */
export function pdftotextPages(file: string): string[] {
  const read = (layout: boolean) => execFileSync('pdftotext', [...(layout ? ['-layout'] : []), file, '-'], { maxBuffer: 1 << 30 }).toString().split('\f');
  const raw = read(false);
  const laid = read(true);
  return raw.map((page, i) => `${squashText(page)}\u0000${squashText(laid[i] ?? '')}`);
}
