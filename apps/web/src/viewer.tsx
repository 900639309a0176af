import { useEffect, useRef, useState } from 'preact/hooks';
import type * as Pdfjs from 'pdfjs-dist';
import { call, json, type Citation } from './api.ts';
import { citedHighlight, lineBoxes, UNKNOWN_LINES, type Box, type ChunkLines } from './line-boxes.ts';
import { citedRange, pagesLabel, stepZoom, turnPage, ZOOM_STEPS } from './viewer-controls.ts';

/** pdf.js as the gateway serves it (pdfjs-dist's own build, loaded once, on first use). */
let pdfjsLoad: Promise<typeof Pdfjs> | null = null;
function pdfjs(): Promise<typeof Pdfjs> {
  pdfjsLoad ??= (import(/* @vite-ignore */ `${location.origin}/vendor/pdfjs/build/pdf.min.mjs`) as Promise<typeof Pdfjs>).then((m) => {
    m.GlobalWorkerOptions.workerSrc = '/vendor/pdfjs/build/pdf.worker.min.mjs';
    return m;
  });
  return pdfjsLoad;
}

/** Lower-case words without spacing or punctuation, so PDF text runs and chunk text compare. */
export function squash(s: string): string {
  return s.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');
}

/**
 * Boxes (viewport pixels) of the page's text runs that belong to the passage: the fallback when the
 * gateway does not know where the chunk's lines were printed. It can highlight a run that merely
 * occurs in the passage too, and cannot tell which of two identical lines is cited.
 */
function passageBoxes(lib: typeof Pdfjs, items: unknown[], viewport: Pdfjs.PageViewport, passage: string): Box[] {
  const body = squash(passage);
  const boxes: Box[] = [];
  for (const raw of items) {
    const item = raw as { str?: string; transform?: number[]; width?: number };
    if (!item.str || !item.transform) continue;
    const run = squash(item.str);
    // Very short runs (a page number, a bullet) would match anywhere.
    if (run.length < 4 || !body.includes(run)) continue;
    const t = lib.Util.transform(viewport.transform, item.transform);
    const height = Math.hypot(t[2]!, t[3]!);
    boxes.push({ left: t[4]!, top: t[5]! - height, width: (item.width ?? 0) * viewport.scale, height });
  }
  return boxes;
}

/** The document and the cited passage, read once per citation. */
interface Loaded {
  lib: typeof Pdfjs;
  doc: Pdfjs.PDFDocumentProxy;
  /** Where the passage's lines (or the cited cell) were printed; when not `exact`, `passage` is matched instead. */
  printed: ChunkLines;
  /** What `printed` holds: the cited cell's box, or the quoted (or all the) lines of the chunk. */
  by: 'cell' | 'lines';
  /** The chunk's text, its quote's alone when it has one (read only when its lines are not known). */
  passage: string;
  range: { first: number; last: number };
}

/**
 * Where the cited cell or passage was printed, or the chunk's text when that is not known: a cited
 * cell's box comes with the citation; otherwise the lines of the quote (the whole chunk's when
 * nothing is quoted) are asked for. A failed lines request (an older gateway) falls back to the
 * text, as does a failed text request to no highlight at all.
 */
async function readPassage(citation: Citation): Promise<{ printed: ChunkLines; by: 'cell' | 'lines'; passage: string }> {
  const wanted = citedHighlight(citation);
  if (wanted.by === 'cell') return { printed: { lines: wanted.lines, exact: true }, by: 'cell', passage: '' };
  const printed = await json<ChunkLines>(wanted.path).catch(() => UNKNOWN_LINES);
  if (printed.exact) return { printed, by: 'lines', passage: '' };
  const chunk = await json<{ body: string }>(`/v1/chunks/${encodeURIComponent(citation.chunkId)}`).catch(() => ({ body: '' }));
  // Matched by text, a quote is matched alone: the rest of the chunk is not what the answer cites.
  const { quote } = citation;
  return { printed, by: 'lines', passage: quote ? chunk.body.slice(quote.start, quote.end) : chunk.body };
}

/** What the canvas shows now: the page and zoom it was drawn for, its size and highlights. */
interface Drawn {
  page: number;
  zoom: number;
  width: number;
  height: number;
  boxes: Box[];
  /** What the boxes are: the cited cell's, the passage's printed lines, or runs matched by text. */
  by: 'cell' | 'lines' | 'text';
}

/** Widest a page is drawn at zoom 1, in CSS pixels. */
const MAX_FIT_WIDTH = 900;

/**
 * The cited pages of the document's PDF, with what the answer cites highlighted: the table cell a
 * figure was read from, else the quoted lines of the passage (all its lines when nothing is
 * quoted), by the positions extraction found them at (by matching text when those are unknown):
 * previous / next through a citation that spans several pages, zoom in / out (a zoomed page
 * scrolls inside the viewer, never the whole page).
 */
export function PdfViewer({ citation, onClose }: { citation: Citation; onClose: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  // One render at a time: pdf.js refuses a second render on a canvas still in use.
  const rendering = useRef<Promise<unknown>>(Promise.resolve());
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [page, setPage] = useState(citation.pages.start);
  const [zoom, setZoom] = useState<number>(1);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    setLoaded(null);
    setDrawn(null);
    (async () => {
      const lib = await pdfjs();
      const [bytes, { printed, by, passage }] = await Promise.all([
        call(`/v1/documents/${encodeURIComponent(citation.docId)}/pdf`).then((r) => r.arrayBuffer()),
        readPassage(citation),
      ]);
      const doc = await lib.getDocument({ data: new Uint8Array(bytes), cMapUrl: '/vendor/pdfjs/cmaps/', cMapPacked: true, standardFontDataUrl: '/vendor/pdfjs/standard_fonts/' }).promise;
      if (cancelled) return;
      const range = citedRange(citation.pages, doc.numPages);
      setPage(range.first);
      setLoaded({ lib, doc, printed, by, passage, range });
    })().catch((err: unknown) => !cancelled && setError(String(err instanceof Error ? err.message : err)));
    return () => {
      cancelled = true;
    };
    // A citation of the same chunk may quote other lines or cite another cell: read again then too.
  }, [citation.chunkId, citation.quote?.start, citation.quote?.end, citation.cell?.box?.join(',')]);

  useEffect(() => {
    if (!loaded) return;
    let cancelled = false;
    let task: Pdfjs.RenderTask | null = null;
    const draw = async () => {
      const pdfPage = await loaded.doc.getPage(page);
      const c = canvas.current;
      if (cancelled || !c) return;
      // Zoom 1 fits the viewer's width, however wide the screen.
      const fit = Math.min(MAX_FIT_WIDTH, (frame.current?.clientWidth ?? 800) - 2);
      const viewport = pdfPage.getViewport({ scale: (fit / pdfPage.getViewport({ scale: 1 }).width) * zoom });
      // Drawn at the screen's pixel density, shown at CSS size: sharp on a phone too.
      const ratio = window.devicePixelRatio || 1;
      c.width = Math.floor(viewport.width * ratio);
      c.height = Math.floor(viewport.height * ratio);
      c.style.width = `${viewport.width}px`;
      c.style.height = `${viewport.height}px`;
      task = pdfPage.render({ canvas: c, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      await task.promise;
      const { exact } = loaded.printed;
      // Boxes come from this render's viewport, so they follow the zoom and the page shown.
      const boxes = exact ? lineBoxes(loaded.printed.lines, page, viewport) : passageBoxes(loaded.lib, (await pdfPage.getTextContent()).items, viewport, loaded.passage);
      if (cancelled) return;
      setDrawn({ page, zoom, width: viewport.width, height: viewport.height, boxes, by: exact ? loaded.by : 'text' });
    };
    const run = rendering.current.then(draw);
    rendering.current = run.catch(() => undefined);
    run.catch((err: unknown) => {
      // A render cut short by the next page or zoom is no error.
      if (!cancelled && !(err instanceof Error && err.name === 'RenderingCancelledException')) setError(String(err instanceof Error ? err.message : err));
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [loaded, page, zoom]);

  const range = loaded?.range ?? { first: citation.pages.start, last: citation.pages.start };
  const current = drawn !== null && drawn.page === page && drawn.zoom === zoom;
  return (
    <div class="overlay" role="dialog" aria-label="Cited page" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="viewer card">
        <div class="row">
          <b class="viewer-title">
            [{citation.n}] {[citation.title, citation.sectionPath, pagesLabel(citation.pages)].filter((part) => part !== '').join(' · ')}
          </b>
          <button class="link" onClick={onClose}>
            Close
          </button>
        </div>
        <div class="viewer-controls" data-testid="viewer-controls">
          {range.last > range.first && (
            <span class="pager">
              <button aria-label="Previous page" disabled={page <= range.first} onClick={() => setPage(turnPage(page, -1, range))}>
                ‹ Prev
              </button>
              <span data-testid="page-label">
                page {page} ({pagesLabel({ start: range.first, end: range.last })})
              </span>
              <button aria-label="Next page" disabled={page >= range.last} onClick={() => setPage(turnPage(page, 1, range))}>
                Next ›
              </button>
            </span>
          )}
          <span class="zoom">
            <button aria-label="Zoom out" disabled={zoom <= ZOOM_STEPS[0]} onClick={() => setZoom(stepZoom(zoom, -1))}>
              −
            </button>
            <span data-testid="zoom-label">{Math.round(zoom * 100)}%</span>
            <button aria-label="Zoom in" disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]!} onClick={() => setZoom(stepZoom(zoom, 1))}>
              +
            </button>
          </span>
        </div>
        {error && <p class="error">Could not open the PDF: {error}</p>}
        {!current && !error && <p class="muted">Loading the page…</p>}
        <div class="pdf-frame" ref={frame}>
          <div
            class="pdf-page"
            data-testid="pdf-page"
            data-page={drawn?.page ?? ''}
            data-zoom={drawn?.zoom ?? ''}
            data-highlights={current ? String(drawn.boxes.length) : ''}
            data-highlights-by={current ? drawn.by : ''}
            style={drawn ? { width: `${drawn.width}px`, height: `${drawn.height}px` } : undefined}
          >
            <canvas ref={canvas} />
            {current &&
              drawn.boxes.map((b, i) => <div class="hl" key={i} style={{ left: `${b.left}px`, top: `${b.top}px`, width: `${b.width}px`, height: `${b.height}px` }} />)}
          </div>
        </div>
      </div>
    </div>
  );
}
