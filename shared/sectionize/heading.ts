import type { Section } from '../domain/index.ts';

/** A detected heading, whatever found it. */
export interface Heading {
  /** Index of the heading's line in the flat line list (for a virtual heading: the line it precedes). */
  line: number;
  /** Lines the printed title occupies (a title wrapped over two lines has 2); 0 when virtual. */
  span: number;
  /** The heading as printed. */
  title: string;
  /** Body text printed on the heading line after the title. */
  rest: string;
  /** Nesting rank: a lower rank encloses a higher one; gaps between ranks are fine. */
  rank: number;
  source: Section['source'];
}

/** Shape test shared by typography and outline matching: short, not a sentence, has letters. */
export function looksLikeTitle(text: string, maxWords = 14, maxChars = 100): boolean {
  const n = text.split(/\s+/).filter(Boolean).length;
  return (
    text.length >= 2 &&
    text.length <= maxChars &&
    n <= maxWords &&
    /\p{L}/u.test(text) &&
    !/^\p{Ll}/u.test(text) &&
    !/[.,;:]$/u.test(text) &&
    // A bullet item, or two sentences ("… (24pt). Used for …"), is body text.
    !/^[•●○◦▪■□◆◇\-–—*·]/u.test(text) &&
    !/\p{Ll}\)?\.\s+\p{Lu}/u.test(text)
  );
}
