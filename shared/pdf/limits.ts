/** Hard limits for one extraction; exceeding either fails the document with `TOO_LARGE`. */
export interface ExtractLimits {
  /** Largest accepted file, in bytes, checked before any parsing. */
  maxBytes: number;
  /** Largest accepted page count, checked right after the document opens. */
  maxPages: number;
}

/** What the extract stage reads: the PDF bytes and, for encrypted files, the user password. */
export interface ExtractInput {
  bytes: Uint8Array;
  /** User password from the document's metadata `password` field. */
  password?: string;
  /**
   * Read only this part of the pages, unfinished (see page-parts.ts): set by the page-splitting
   * extractor, never by a stage.
   */
  part?: PagePart;
}

/** Part `index` (0-based) of `of` consecutive page ranges of one document. */
export interface PagePart {
  index: number;
  of: number;
}

/** Optional observers for things that do not fail the document but are worth recording. */
export interface ExtractHooks {
  /** Called once per page that could not be read and was skipped (left without lines). */
  onPageError?: (pageNumber: number, reason: string) => void;
  /** Called once the document is open and its page count is within the limit (before any page is read). */
  onOpened?: (pageCount: number) => void;
}
