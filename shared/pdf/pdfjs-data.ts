import { createRequire } from 'node:module';
import path from 'node:path';

/** Where pdf.js finds the binary data it loads on demand. */
export interface PdfjsDataPaths {
  /** Folder of the packed predefined CMaps (`*.bcmap`), ending in a path separator. */
  cMapUrl: string;
  /** Folder of the standard 14 font programs (Foxit/Liberation), ending in a path separator. */
  standardFontDataUrl: string;
}

let cached: PdfjsDataPaths | undefined;

/**
 * The `cmaps/` and `standard_fonts/` folders of the installed `pdfjs-dist` (the same pdf.js
 * release unpdf bundles, which ships the code but not this data). Without the CMaps, text in a
 * CJK font that is not embedded and names a predefined encoding (`UniKS-UCS2-H`,
 * `UniJIS-UCS2-H`, …) decodes to nothing; without the standard fonts, widths of the base-14
 * fonts are guessed. Resolved from node_modules on first use: nothing is fetched at run time.
 * pdf.js in Node reads `<folder><name>` with fs, so both paths end in a separator.
 *
 * @throws Error when pdfjs-dist is not installed (a broken install, not a bad document).
 */
export function pdfjsDataPaths(): PdfjsDataPaths {
  if (cached) return cached;
  const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  cached = {
    cMapUrl: path.join(root, 'cmaps') + path.sep,
    standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep,
  };
  return cached;
}
