/**
 * Finds the atomic blocks of a section's text — lists and tables — and the prose between them.
 *
 * A list or table cut in half loses its meaning (a row without its header, item 3 without the
 * sentence that introduced the list), so the chunker keeps each block whole and only splits it,
 * at item or row boundaries, when the block alone is larger than a chunk may be.
 */

/** What a stretch of a section's text is. */
export type BlockKind = 'prose' | 'list' | 'table';

/** A contiguous stretch `[start, end)` of a section's text. */
export interface Block {
  kind: BlockKind;
  start: number;
  end: number;
  /**
   * For lists: start offsets of each top-level item — items whose marker is of the same kind as
   * the first item's, so "1." items under a "②" clause stay with it. For tables: start offsets
   * of each row (row 0 is the header). Empty for prose.
   */
  parts: number[];
}

/**
 * Line-start list markers: bullets (- • * · ▪ ◦ ○ ● ■ □ ◆ ◇ ※ ▶ ➢), circled numbers (①),
 * numbers ("1." "1)" "(1)"), Korean syllable items ("가." "가)"), Latin letters ("(a)" "a)")
 * and roman numerals ("(iv)"). Four-digit numbers are excluded so "2025. 2. 23." is not a list.
 */
export const LIST_MARKER =
  /^[ \t]*(?:[-•*·▪◦‣○●■□◆◇※▶➢][ \t]+|[\u2460-\u2473\u3251-\u325F\u32B1-\u32BF][ \t]*|\d{1,3}[.)][ \t]+|\(\d{1,3}\)[ \t]*|[가나다라마바사아자차카타파하][.)][ \t]+|\([가-힣]\)[ \t]*|\([a-z]\)[ \t]+|[a-z]\)[ \t]+|\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\)[ \t]+)/;

/** The kind of marker a list line starts with; nested items use a different kind than their parent. */
export function markerFamily(line: string): string | null {
  const m = LIST_MARKER.exec(line);
  if (!m) return null;
  const marker = m[0].trim();
  if (/^[\u2460-\u2473\u3251-\u325F\u32B1-\u32BF]/.test(marker)) return 'circled';
  if (/^\d/.test(marker)) return 'number';
  if (/^\(\d/.test(marker)) return 'paren-number';
  if (/^\(?[가-힣]/.test(marker)) return 'hangul';
  if (/^\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\)/.test(marker)) return 'roman';
  if (/^\(?[a-z]/.test(marker)) return 'latin';
  return 'bullet';
}

/** Cell separators of a text table: a tab, or two or more spaces. */
const CELL_GAP = /\t+| {2,}/;

/**
 * Longest cell (characters, words) we accept in a space-separated row: table cells are short,
 * while a justified or badly extracted prose line with a double space has long halves.
 */
const MAX_SPACED_CELL = 40;
const MAX_SPACED_CELL_WORDS = 6;

/** Cells of a table row, or null when the line is not a row. */
export function tableCells(line: string): string[] | null {
  const trimmed = line.trim();
  if (trimmed === '') return null;
  if (trimmed.includes('|')) {
    const cells = trimmed.replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
    if (cells.length >= 2 && cells.some((c) => c !== '')) return cells;
  }
  if (trimmed.includes('\t')) {
    const cells = trimmed.split(/\t+/).map((c) => c.trim());
    if (cells.length >= 2) return cells;
  }
  const cells = trimmed.split(CELL_GAP).map((c) => c.trim());
  const short = (c: string): boolean => c.length <= MAX_SPACED_CELL && c.split(/\s+/).length <= MAX_SPACED_CELL_WORDS;
  if (cells.length >= 2 && cells.every(short)) return cells;
  return null;
}

interface Line {
  start: number;
  end: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    lines.push({ start, end, text: text.slice(start, end) });
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

const isBlank = (l: Line): boolean => l.text.trim() === '';
const isMarker = (l: Line): boolean => LIST_MARKER.test(l.text);
/** Ends like a finished sentence or item: the next unmarked line is then prose, not a wrap. */
const endsClosed = (l: Line): boolean => /[.!?。:;]["'”’)\]]*\s*$/.test(l.text);

/**
 * Splits `text` into prose, list and table blocks in reading order, covering all non-blank
 * text. A table is a run of at least two row lines; a list runs from a marker line through
 * further marker lines, their wrapped continuation lines (an unmarked line after an item that
 * does not end like a sentence) and blank lines that are followed by another marker line.
 */
export function findBlocks(text: string): Block[] {
  const lines = linesOf(text);
  const blocks: Block[] = [];
  let prose: Line[] = [];
  const flushProse = (): void => {
    const body = prose.filter((l) => !isBlank(l));
    const first = body[0];
    const last = body[body.length - 1];
    if (first && last) blocks.push({ kind: 'prose', start: first.start, end: last.end, parts: [] });
    prose = [];
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as Line;
    // Table: two or more consecutive row lines (a single row is more likely a spaced heading).
    if (tableCells(line.text) !== null && i + 1 < lines.length && tableCells((lines[i + 1] as Line).text) !== null) {
      flushProse();
      const rows: Line[] = [];
      while (i < lines.length && tableCells((lines[i] as Line).text) !== null) rows.push(lines[i++] as Line);
      const lastRow = rows[rows.length - 1] as Line;
      blocks.push({ kind: 'table', start: (rows[0] as Line).start, end: lastRow.end, parts: rows.map((r) => r.start) });
      continue;
    }
    if (isMarker(line)) {
      flushProse();
      const items: number[] = [];
      const topFamily = markerFamily(line.text);
      let last = line;
      let prev = line;
      while (i < lines.length) {
        const cur = lines[i] as Line;
        if (isMarker(cur)) {
          if (markerFamily(cur.text) === topFamily) items.push(cur.start);
          last = cur;
        } else if (isBlank(cur)) {
          let j = i + 1;
          while (j < lines.length && isBlank(lines[j] as Line)) j += 1;
          const after = lines[j];
          if (!after || !isMarker(after)) break;
          i = j;
          continue;
        } else if (!endsClosed(prev) && tableCells(cur.text) === null) {
          last = cur;
        } else {
          break;
        }
        prev = cur;
        i += 1;
      }
      blocks.push({ kind: 'list', start: line.start, end: last.end, parts: items });
      continue;
    }
    if (isBlank(line) && prose.length > 0 && prose.some((l) => !isBlank(l))) {
      // Paragraph breaks stay inside one prose block; the sentence splitter treats them as hard.
      prose.push(line);
    } else if (!isBlank(line)) {
      prose.push(line);
    }
    i += 1;
  }
  flushProse();
  return blocks.map((b) => trimBlock(text, b));
}

function trimBlock(text: string, b: Block): Block {
  let { start, end } = b;
  while (start < end && /\s/.test(text[start] ?? '')) start += 1;
  while (end > start && /\s/.test(text[end - 1] ?? '')) end -= 1;
  return { ...b, start, end };
}
