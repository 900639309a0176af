import { useEffect, useRef, useState } from 'preact/hooks';
import type * as Pdfjs from 'pdfjs-dist';
import { call, json, type Citation } from './api.ts';

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

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Boxes (viewport pixels) of the page's text runs that belong to the passage. */
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

/** The cited page of the document's PDF, with the cited passage highlighted. */
export function PdfViewer({ citation, onClose }: { citation: Citation; onClose: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [boxes, setBoxes] = useState<Box[]>([]);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const lib = await pdfjs();
      const [bytes, chunk] = await Promise.all([
        call(`/v1/documents/${encodeURIComponent(citation.docId)}/pdf`).then((r) => r.arrayBuffer()),
        json<{ body: string }>(`/v1/chunks/${encodeURIComponent(citation.chunkId)}`).catch(() => ({ body: '' })),
      ]);
      const doc = await lib.getDocument({ data: new Uint8Array(bytes), cMapUrl: '/vendor/pdfjs/cmaps/', cMapPacked: true, standardFontDataUrl: '/vendor/pdfjs/standard_fonts/' }).promise;
      const page = await doc.getPage(Math.min(citation.pages.start, doc.numPages));
      const width = Math.min(900, (canvas.current?.parentElement?.clientWidth ?? 800) - 2);
      const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
      const c = canvas.current;
      if (cancelled || !c) return;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      await page.render({ canvas: c, viewport }).promise;
      const text = await page.getTextContent();
      if (cancelled) return;
      setSize({ width: viewport.width, height: viewport.height });
      setBoxes(passageBoxes(lib, text.items, viewport, chunk.body));
      setLoading(false);
    })().catch((err: unknown) => !cancelled && setError(String(err instanceof Error ? err.message : err)));
    return () => {
      cancelled = true;
    };
  }, [citation.chunkId]);

  return (
    <div class="overlay" role="dialog" aria-label="Cited page" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="viewer card">
        <div class="row">
          <b>
            [{citation.n}] {citation.title} · {citation.sectionPath} · p. {citation.pages.start}
          </b>
          <button class="link" onClick={onClose}>
            Close
          </button>
        </div>
        {error && <p class="error">Could not open the PDF: {error}</p>}
        {loading && !error && <p class="muted">Loading the page…</p>}
        <div class="pdf-page" data-testid="pdf-page" data-page={citation.pages.start} data-highlights={loading ? '' : String(boxes.length)} style={size ? { width: `${size.width}px`, height: `${size.height}px` } : undefined}>
          <canvas ref={canvas} />
          {boxes.map((b, i) => (
            <div class="hl" key={i} style={{ left: `${b.left}px`, top: `${b.top}px`, width: `${b.width}px`, height: `${b.height}px` }} />
          ))}
        </div>
      </div>
    </div>
  );
}
