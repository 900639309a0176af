import { visibleChars } from './build-sections.ts';
import type { FlatLine } from './flat-lines.ts';
import type { Heading } from './heading.ts';

/** Above this share of the text before the first numbered heading, the numbering is a list at the back. */
const MAX_LEAD_SHARE = 0.5;

/**
 * Whether numbered headings start so late that most of the document's text would come before
 * them: then they are a list at the back — an exhibit index ("10.2 Form of Agreement …",
 * "31.1 Certification …"), a reference list — not the document's outline, and the whole body
 * would be one preamble. Measured in visible characters of the lines not `dropped`.
 */
export function startsLate(headings: readonly Heading[], lines: readonly FlatLine[], dropped: ReadonlySet<number>): boolean {
  const first = Math.min(...headings.map((h) => h.line));
  if (!Number.isFinite(first)) return false;
  let before = 0;
  let total = 0;
  lines.forEach((l, i) => {
    if (dropped.has(i)) return;
    const n = visibleChars(l.text);
    total += n;
    if (i < first) before += n;
  });
  return before > MAX_LEAD_SHARE * total;
}
