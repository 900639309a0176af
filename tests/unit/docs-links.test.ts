/**
 * The documentation stays navigable: the README is an entry page of at most 300 lines, and every
 * relative link in the repository's Markdown (README.md, docs/, the folders' READMEs) names a file
 * that exists and, with a `#fragment`, a heading (by its GitHub anchor) or an `<a id>` in that file.
 * External (http, https, mailto…) links are not checked: the test runs offline.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The README's budget (issue 27): one screen to start and a map to the rest. */
const README_MAX_LINES = 300;

/** Folders never searched for Markdown: dependencies, build output, local data. */
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git', '.quarry']);

/** Every `*.md` under `dir`, relative to `base`, sorted; hidden folders other than `.github` are skipped. */
function markdownFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (SKIP_DIRS.has(e.name) || (e.name.startsWith('.') && e.name !== '.github')) continue;
      out.push(...markdownFiles(path.join(dir, e.name), base));
    } else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) {
      out.push(path.relative(base, path.join(dir, e.name)).split(path.sep).join('/'));
    }
  }
  return out.sort();
}

/** Lines of a text as an editor counts them (a final newline ends the last line, it starts none). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text lower-cased, everything but
 * letters, marks, digits, connector punctuation, `-` and spaces dropped, spaces turned into `-`.
 */
function githubSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's rendered text: links and images reduced to their text, HTML tags removed. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+#+\s*$/, '')
    .trim();
}

/** The text's lines with fenced code blocks blanked (line numbers kept), inline code spans removed. */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length) fence = null;
      return '';
    }
    if (m) {
      fence = m[1]!;
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** Every anchor a Markdown file offers: its headings' GitHub slugs (duplicates numbered) and `<a id|name>`. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (raw: string) => {
    const slug = githubSlug(headingText(raw));
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  };
  // Headings are read with code spans kept: their text is part of the anchor.
  let fence: string | null = null;
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = null;
      return;
    }
    if (f) {
      fence = f[1]!;
      return;
    }
    const atx = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    if (atx) add(atx[1]!);
    else if (/^\s{0,3}(=+|-+)\s*$/.test(line) && i > 0 && lines[i - 1]!.trim() !== '' && !/^\s{0,3}([-*+]|\d+[.)])\s|^\s{0,3}\|/.test(lines[i - 1]!)) {
      // A setext heading; a `---` under a list item or a table row is not one.
      if (/^\s{0,3}=+\s*$/.test(line) || /^\s{0,3}-+\s*$/.test(line)) add(lines[i - 1]!);
    }
    for (const m of line.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]!.toLowerCase());
  });
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** Relative link targets of a Markdown text: `[..](target)`, `![..](target)`, `[x]: target`, `<img src>`, `<a href>`. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((line, i) => {
    const push = (t: string) => links.push({ line: i + 1, target: t.replace(/^<|>$/g, '') });
    for (const m of line.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)) push(m[1]!);
    const def = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (def) push(def[1]!);
    for (const m of line.matchAll(/<(?:img|source)\s[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi)) push(m[1]!);
    for (const m of line.matchAll(/<a\s[^>]*?\bhref\s*=\s*["']([^"']+)["']/gi)) push(m[1]!);
  });
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target) && !l.target.startsWith('//'));
}

/** Whether a repository-relative path is a file, a directory, or absent. */
type PathKind = 'file' | 'dir' | null;

const repoPathKind = (rel: string): PathKind => {
  const p = path.join(root, rel);
  if (!existsSync(p)) return null;
  return statSync(p).isDirectory() ? 'dir' : 'file';
};

const readRepoFile = (rel: string): string | null => (repoPathKind(rel) === 'file' ? readFileSync(path.join(root, rel), 'utf8') : null);

/** What is wrong with each relative link of `file` (repository-relative), as readable lines. */
function brokenLinks(file: string, readText: (rel: string) => string | null, kindOf: (rel: string) => PathKind): string[] {
  const text = readText(file) ?? '';
  const problems: string[] = [];
  for (const { line, target } of linksOf(text)) {
    const hash = target.indexOf('#');
    const rawPath = hash === -1 ? target : target.slice(0, hash);
    const fragment = hash === -1 ? '' : decodeURIComponent(target.slice(hash + 1));
    let rel = file;
    if (rawPath !== '') {
      const decoded = decodeURIComponent(rawPath);
      rel = path.posix.normalize(decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded)).replace(/\/$/, '');
      if (rel.startsWith('../') || kindOf(rel) === null) {
        problems.push(`${file}:${line}: ${target} — no such file (${rel})`);
        continue;
      }
    }
    // Anchors are checked in Markdown files only (a fragment into code or an image is GitHub's line or nothing).
    if (fragment === '' || !rel.toLowerCase().endsWith('.md') || kindOf(rel) !== 'file') continue;
    if (!anchorsOf(readText(rel) ?? '').has(fragment.toLowerCase())) problems.push(`${file}:${line}: ${target} — no heading or <a id> "${fragment}" in ${rel}`);
  }
  return problems;
}

describe('documentation links', () => {
  const files = markdownFiles(root);

  it(`README.md is an entry page of at most ${README_MAX_LINES} lines`, () => {
    expect(lineCount(readFileSync(path.join(root, 'README.md'), 'utf8'))).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('finds the README, the docs and the folders’ READMEs', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(5);
    expect(files.some((f) => f.startsWith('node_modules/') || f.includes('/dist/'))).toBe(false);
  });

  it('every relative link and image names an existing file, and every #anchor a heading or <a id> in it', () => {
    expect(files.flatMap((f) => brokenLinks(f, readRepoFile, repoPathKind))).toEqual([]);
  });

  it('every page of docs/ is reachable from the README or the docs table of contents', () => {
    const linked = new Set(
      ['README.md', 'docs/README.md'].flatMap((f) =>
        linksOf(readFileSync(path.join(root, f), 'utf8')).map((l) => path.posix.normalize(path.posix.join(path.posix.dirname(f), l.target.split('#')[0]!))),
      ),
    );
    const orphans = files.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md' && !linked.has(f));
    expect(orphans).toEqual([]);
  });
});

describe('the link checker itself', () => {
  const pages: Record<string, string> = {
    'a.md': [
      '# Title',
      '## HTTP API (`quarry gateway`, or part of `quarry dev`)',
      '## Streaming and chat clients',
      '## Streaming and chat clients',
      '### Node 22, LanceDB 0.39, the refresh in the background',
      '## 시행일 / effective date',
      '- **Reconciler.** <a id="reconciler"></a>The process',
      'See [b](b.md#setext-heading), [self](#streaming-and-chat-clients-1), [img](pics/x.png).',
      '```',
      '[not a link](missing.md)',
      '```',
      'Inline `[code](missing.md)` is not a link either; [web](https://example.com/x#y) is not checked.',
    ].join('\n'),
    'b.md': ['Setext heading', '==============', '', '[back](a.md#reconciler) [bad](a.md#nowhere) [gone](c.md) [root](/a.md#title)'].join('\n'),
  };
  const read = (rel: string) => pages[rel] ?? null;

  it('slugs headings as GitHub does', () => {
    const anchors = anchorsOf(pages['a.md']!);
    expect(anchors).toEqual(
      new Set([
        'title',
        'http-api-quarry-gateway-or-part-of-quarry-dev',
        'streaming-and-chat-clients',
        'streaming-and-chat-clients-1',
        'node-22-lancedb-039-the-refresh-in-the-background',
        '시행일--effective-date',
        'reconciler',
      ]),
    );
    expect(anchorsOf(pages['b.md']!)).toEqual(new Set(['setext-heading']));
  });

  it('reads links outside code only, and skips external ones', () => {
    expect(linksOf(pages['a.md']!).map((l) => l.target)).toEqual(['b.md#setext-heading', '#streaming-and-chat-clients-1', 'pics/x.png']);
    expect(linksOf('<img src="docs/screenshots/ask.png" width="420"> <a href="k8s/README.md">k8s</a>').map((l) => l.target)).toEqual([
      'docs/screenshots/ask.png',
      'k8s/README.md',
    ]);
  });

  it('reports a missing file and a missing anchor, and accepts what exists', () => {
    const kind = (rel: string): PathKind => (rel in pages ? 'file' : null);
    expect(brokenLinks('a.md', read, kind)).toEqual(['a.md:8: pics/x.png — no such file (pics/x.png)']);
    expect(brokenLinks('b.md', read, kind)).toEqual([
      'b.md:4: a.md#nowhere — no heading or <a id> "nowhere" in a.md',
      'b.md:4: c.md — no such file (c.md)',
    ]);
  });

  it('counts lines as an editor does', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('')).toBe(0);
  });
});
