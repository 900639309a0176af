import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import type { ExtractedDocument } from '../domain/index.ts';
import { normaliseText } from './text-normalise.ts';

const OFFICE_PREFIX = /^microsoft\s+(?:office\s+)?(?:word|powerpoint|excel)\s*-\s*/i;
const FILE_EXTENSION = /\.(?:pdf|docx?|rtf|odt|pptx?|xlsx?|txt|tex|dvi|ps|eps|html?|indd|qxd|pages|wpd)$/i;
const JUNK = /^(?:untitled(?: document)?|no title|title|document\s*\d*|unknown|new document|slide \d+|\d+|[\p{P}\p{S}\s_]+)$/iu;

/**
 * The PDF Title entry when it is meaningful: "Microsoft Word - " prefixes and file extensions
 * stripped; placeholders ("untitled"), bare file names and paths rejected.
 */
export function cleanPdfTitle(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let title = normaliseText(raw).replace(OFFICE_PREFIX, '');
  if (/[\\/]/.test(title) && !/\s/.test(title)) return null;
  if (FILE_EXTENSION.test(title)) {
    title = title.replace(FILE_EXTENSION, '');
    // "report_v2.doc" is a file name; "Annual Report.doc" is a title with a stray extension.
    if (!/\s/.test(title)) return null;
  }
  title = title.trim();
  if (title.length < 2 || JUNK.test(title)) return null;
  return title;
}

/** A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`) as YYYY-MM-DD, or null unless it names a real day. */
export function parsePdfDate(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = /^\s*(?:D:)?(\d{4})(\d{2})(\d{2})/.exec(raw);
  if (!m) return null;
  const [, y = '', mo = '', d = ''] = m;
  const iso = `${y}-${mo}-${d}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) && Number(y) >= 1900 ? iso : null;
}

/** What the document says of itself, plus whether it carries an XFA form. */
export interface DocumentInfo {
  info: ExtractedDocument['info'];
  /** XFA forms keep their text outside the page content, where pdf.js extraction cannot see it. */
  hasXfa: boolean;
}

/** Title and creation date from the Info dictionary (XMP dc:title as a fallback title). */
export async function readInfo(doc: PDFDocumentProxy): Promise<DocumentInfo> {
  try {
    const { info, metadata } = await doc.getMetadata();
    const dict = info as Record<string, unknown>;
    const xmpTitle: unknown = metadata?.get('dc:title');
    return {
      info: { title: cleanPdfTitle(dict.Title) ?? cleanPdfTitle(xmpTitle), creationDate: parsePdfDate(dict.CreationDate) },
      hasXfa: dict.IsXFAPresent === true,
    };
  } catch {
    return { info: { title: null, creationDate: null }, hasXfa: false };
  }
}
