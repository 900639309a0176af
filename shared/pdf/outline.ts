import type { PDFDocumentProxy } from 'unpdf/pdfjs';
import type { OutlineEntry } from '../domain/index.ts';
import { normaliseText } from './text-normalise.ts';

/** Bounds on what a hostile outline can cost. */
const MAX_ENTRIES = 2000;
const MAX_DEPTH = 12;

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

function isRef(v: unknown): v is { num: number; gen: number } {
  return typeof v === 'object' && v !== null && 'num' in v && 'gen' in v;
}

/** Resolves a bookmark destination to a 1-based page, or null when it does not resolve. */
async function resolvePage(doc: PDFDocumentProxy, dest: OutlineNode['dest']): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    const target: unknown = Array.isArray(explicit) ? explicit[0] : undefined;
    let index: number | undefined;
    if (isRef(target)) index = await doc.getPageIndex(target);
    // Some writers put a page index where the page reference belongs.
    else if (typeof target === 'number' && Number.isInteger(target)) index = target;
    if (index === undefined || index < 0 || index >= doc.numPages) return null;
    return index + 1;
  } catch {
    return null;
  }
}

/**
 * The document outline (bookmarks), flattened depth-first with 1-based levels. A bookmark whose
 * destination does not resolve keeps `page: null`; a broken outline yields `[]`, never an error.
 */
export async function readOutline(doc: PDFDocumentProxy): Promise<OutlineEntry[]> {
  let roots: OutlineNode[];
  try {
    roots = ((await doc.getOutline()) ?? []) as OutlineNode[];
  } catch {
    return [];
  }
  const out: OutlineEntry[] = [];
  const stack: Array<{ node: OutlineNode; level: number }> = roots.map((node) => ({ node, level: 1 })).reverse();
  while (stack.length > 0 && out.length < MAX_ENTRIES) {
    const next = stack.pop();
    if (!next) break;
    const { node, level } = next;
    const title = normaliseText(typeof node.title === 'string' ? node.title : '');
    if (title) out.push({ title, level, page: await resolvePage(doc, node.dest) });
    if (level < MAX_DEPTH && Array.isArray(node.items)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const child = node.items[i];
        if (child) stack.push({ node: child, level: level + 1 });
      }
    }
  }
  return out;
}
