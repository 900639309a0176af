import { z } from 'zod';

/** One visual line of a page, rebuilt from pdf.js text items. Coordinates are PDF points, origin bottom-left. */
export const TextLine = z.object({
  text: z.string(),
  x: z.number(),
  y: z.number(),
  /** Dominant font size of the line, in points. */
  fontSize: z.number(),
  /**
   * Extent of the line along its writing direction, in points: from the start of its first text
   * run to the end of its last (for horizontal left-to-right text, `x` to `x + width`). What the
   * viewer highlights a cited line by; absent in artifacts extracted before it was kept.
   */
  width: z.number().nonnegative().optional(),
  /**
   * The line's runs as printed apart, when it has two or more separated by a gap wider than
   * about an em (what separates a table's columns; word spaces are narrower): `[x, width, text]`
   * each, in points, left to right. Absent for ordinary lines, so artifacts stay small; what
   * shared/tables reads columns from, since `text` joins the runs with single spaces.
   */
  cells: z.array(z.tuple([z.number(), z.number().nonnegative(), z.string()])).optional(),
});
export type TextLine = z.infer<typeof TextLine>;

export const Page = z.object({
  /** 1-based page number. */
  number: z.number().int().positive(),
  width: z.number(),
  height: z.number(),
  lines: z.array(TextLine),
});
export type Page = z.infer<typeof Page>;

export const OutlineEntry = z.object({
  title: z.string(),
  /** 1 for top-level bookmarks. */
  level: z.number().int().positive(),
  /** 1-based page the bookmark points at, when it resolves. */
  page: z.number().int().positive().nullable(),
});
export type OutlineEntry = z.infer<typeof OutlineEntry>;

/** Output of the extract stage: cleaned per-page lines, the outline and what the PDF says of itself. */
export const ExtractedDocument = z.object({
  pageCount: z.number().int().nonnegative(),
  pages: z.array(Page),
  outline: z.array(OutlineEntry),
  info: z.object({
    /** The PDF's own Title entry, when it has a meaningful one. */
    title: z.string().nullable(),
    /** The PDF's CreationDate as YYYY-MM-DD, when present and valid. */
    creationDate: z.string().nullable(),
  }),
  /** Lines removed as running headers/footers (text, for audit), at most a few dozen. */
  strippedLines: z.array(z.string()),
  /** Non-space characters of every line removed as a running header, footer or page number (counted apart from the body). */
  runningChars: z.number().int().nonnegative().optional(),
});
export type ExtractedDocument = z.infer<typeof ExtractedDocument>;
