// Numbering prefixes, tried in order; the first that matches is removed.
const NUMBERING = [
  /^제\s?\d+\s?(?:편|장|절|관|조)(?:\s?의\s?\d+)?\s*/u,
  /^(?:appendix|annex)\s+[a-z](?:\.\d+)*\.?\s*[:—–-]?\s*/iu,
  /^[A-Z](?:\.\d+)+\.?(?:\s+|$)/u,
  /^\d+(?:\.\d+)*\.?(?:\s+|$)/u,
  /^(?:[IVXLC]+|[A-Z])\.\s+/u,
  /^(?:chapter|part|section)\s+(?:\d+|[ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen)\b[:.]?\s*/iu,
];
const ANNOTATION = /<[^>]*>|\[[^\]]*\]/gu;

/**
 * The normalised heading of a printed title: numbering and article markers removed, statute
 * annotations ("<개정 …>") dropped, article titles unwrapped ("제1조(목적)" → "목적"),
 * lower-cased, whitespace folded. When nothing is left, the marker itself ("제35조").
 */
export function normaliseHeading(title: string): string {
  const clean = title.replace(ANNOTATION, ' ').replace(/\s+/g, ' ').trim();
  let rest = clean;
  let marker = '';
  for (const re of NUMBERING) {
    const m = re.exec(clean);
    if (m) {
      marker = m[0].trim().replace(/[.:]$/u, '');
      rest = clean.slice(m[0].length);
      break;
    }
  }
  rest = rest.trim();
  if (rest.startsWith('(') && rest.endsWith(')')) rest = rest.slice(1, -1);
  const heading = rest.replace(/[:：]$/u, '').replace(/\s+/g, ' ').trim().toLowerCase();
  return heading || (marker || clean).toLowerCase();
}
