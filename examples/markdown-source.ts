/**
 * Reads an example source: YAML-ish front matter followed by a small Markdown subset.
 *
 * ```
 * ---
 * title: Parental Leave Policy
 * doc_type: policy
 * jurisdiction: US
 * lang: en
 * valid_from: 2023-01-01
 * valid_to: 2025-01-01      # or null, or leave the key out
 * author: People Operations # PDF Author (optional)
 * created: 2022-11-15       # PDF CreationDate (optional)
 * page_size: letter         # a4 (default) or letter
 * ---
 * # Heading 1   ## Heading 2   ### Heading 3
 * Paragraph lines, joined until a blank line.
 * - bullet item        1. numbered item    (continuation lines indented by two spaces)
 * | table | header |
 * |---|---|
 * | cell | cell |
 * ```
 */
import type { Block } from './pdf-layout.ts';

/** The sidecar fields, in the order they are written to `<name>.meta.json`. */
export interface ExampleMeta {
  doc_type: string;
  jurisdiction: string;
  lang: 'en' | 'ko';
  valid_from?: string;
  valid_to?: string | null;
  title: string;
}

/** A parsed source: sidecar metadata, PDF-only metadata and the content blocks. */
export interface ExampleSource {
  meta: ExampleMeta;
  author?: string;
  creationDate?: Date;
  pageSize: 'a4' | 'letter';
  blocks: Block[];
}

const KEYS = new Set(['title', 'doc_type', 'jurisdiction', 'lang', 'valid_from', 'valid_to', 'author', 'created', 'page_size']);

function parseFrontMatter(lines: string[], name: string): Map<string, string | null> {
  const fields = new Map<string, string | null>();
  for (const raw of lines) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line) continue;
    const match = /^([a-z_]+):\s*(.*)$/.exec(line);
    if (!match?.[1]) throw new Error(`${name}: front matter line is not "key: value": ${raw}`);
    const key = match[1];
    if (!KEYS.has(key)) throw new Error(`${name}: unknown front matter key "${key}"`);
    const value = (match[2] ?? '').replace(/^(["'])(.*)\1$/, '$2');
    fields.set(key, value === 'null' || value === '' ? null : value);
  }
  return fields;
}

function required(fields: Map<string, string | null>, key: string, name: string): string {
  const value = fields.get(key);
  if (!value) throw new Error(`${name}: front matter needs "${key}"`);
  return value;
}

function parseBody(lines: string[], name: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  let table: string[][] | undefined;

  const flush = (): void => {
    if (paragraph.length > 0) blocks.push({ type: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ type: 'list', items: list.items, ...(list.ordered ? { ordered: true } : {}) });
    if (table) {
      const [header, ...rows] = table;
      if (!header) throw new Error(`${name}: empty table`);
      blocks.push({ type: 'table', header, rows });
    }
    paragraph = [];
    list = undefined;
    table = undefined;
  };

  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    const heading = /^(#{1,3})\s+(.+)$/.exec(line);
    const bullet = /^-\s+(.+)$/.exec(line);
    const numbered = /^\d+\.\s+(.+)$/.exec(line);
    if (!line.trim()) {
      flush();
    } else if (heading?.[1] && heading[2]) {
      flush();
      blocks.push({ type: 'heading', level: heading[1].length as 1 | 2 | 3, text: heading[2].trim() });
    } else if (line.startsWith('|')) {
      if (!table) flush();
      const cells = line.replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
      if (!cells.every((c) => /^:?-{3,}:?$/.test(c))) (table ??= []).push(cells);
    } else if ((bullet?.[1] || numbered?.[1]) && paragraph.length === 0) {
      const ordered = !bullet;
      if (list && list.ordered !== ordered) flush();
      list ??= { ordered, items: [] };
      list.items.push((bullet?.[1] ?? numbered?.[1] ?? '').trim());
    } else if (list && /^\s{2,}\S/.test(line)) {
      const last = list.items.length - 1;
      list.items[last] = `${list.items[last] ?? ''} ${line.trim()}`;
    } else {
      if (list || table) flush();
      if (paragraph.length === 0 && /^\s/.test(line)) throw new Error(`${name}:${index + 1}: unexpected indentation`);
      paragraph.push(line.trim());
    }
  });
  flush();
  return blocks;
}

/**
 * Parses one example source.
 *
 * @throws Error when the front matter is missing, has an unknown key, or lacks title, doc_type,
 *   jurisdiction or lang.
 */
export function parseExampleSource(text: string, name: string): ExampleSource {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[0]?.trim() !== '---') throw new Error(`${name}: source must start with front matter (---)`);
  const end = lines.indexOf('---', 1);
  if (end < 0) throw new Error(`${name}: front matter is not closed (---)`);
  const fields = parseFrontMatter(lines.slice(1, end), name);

  const lang = required(fields, 'lang', name);
  if (lang !== 'en' && lang !== 'ko') throw new Error(`${name}: lang must be en or ko`);
  const validFrom = fields.get('valid_from');
  const meta: ExampleMeta = {
    doc_type: required(fields, 'doc_type', name),
    jurisdiction: required(fields, 'jurisdiction', name),
    lang,
    ...(validFrom ? { valid_from: validFrom } : {}),
    ...(fields.has('valid_to') ? { valid_to: fields.get('valid_to') ?? null } : {}),
    title: required(fields, 'title', name),
  };

  const created = fields.get('created');
  const pageSize = fields.get('page_size') ?? 'a4';
  if (pageSize !== 'a4' && pageSize !== 'letter') throw new Error(`${name}: page_size must be a4 or letter`);
  const author = fields.get('author');
  return {
    meta,
    ...(author ? { author } : {}),
    ...(created ? { creationDate: new Date(`${created}T00:00:00Z`) } : {}),
    pageSize,
    blocks: parseBody(lines.slice(end + 1), name),
  };
}
