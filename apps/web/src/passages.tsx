import { useState } from 'preact/hooks';
import type { ChunkRecord, Citation, CitedCell, DocTable } from './api.ts';
import { passageExcerpt, shownRows, tableCaption, tableView } from './table-view.ts';

/** Rows a cited table shows before "Show all": a statement's worth, around the cited row. */
const TABLE_ROWS_SHOWN = 14;

/**
 * A cited table drawn from its data: its title and caption, columns as header cells, each row's
 * label indented by its level, figures right-aligned, the cited cell marked. It scrolls sideways
 * inside its own box when wider than the screen, never the page.
 */
export function CitedTable({ table, caption, cell }: { table: DocTable; caption: readonly string[]; cell?: CitedCell }) {
  const view = tableView(table, cell);
  const [all, setAll] = useState(false);
  const shown = all ? { from: 0, to: view.rows.length } : shownRows(view.rows.length, view.cited?.row ?? null, TABLE_ROWS_SHOWN);
  const hidden = view.rows.length - (shown.to - shown.from);
  return (
    <figure class="cited-table" data-testid="cited-table" data-cited={view.cited ? `${view.cited.row}:${view.cited.column}` : ''}>
      {(view.title || caption.length > 0) && (
        <figcaption>
          {view.title && <b>{view.title}</b>} {caption.length > 0 && <span class="muted">{caption.join(' ')}</span>}
        </figcaption>
      )}
      <div class="table-scroll" data-testid="table-scroll">
        <table class="doc-table">
          <thead>
            <tr>
              <th scope="col" class="label">
                <span class="sr-only">Row</span>
              </th>
              {view.columns.map((c, k) => (
                <th scope="col" key={k} class={c.numeric ? 'num' : undefined}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.rows.slice(shown.from, shown.to).map((r) => (
              <tr key={r.index} class={[r.heading ? 'group' : '', r.cited ? 'cited-row' : ''].join(' ').trim() || undefined}>
                {/* Indented by level as printed: a total sits under its group. */}
                <th scope="row" class="label" style={{ paddingLeft: `${0.5 + 1.1 * r.level}em` }}>
                  {r.label}
                </th>
                {r.cells.map((c, k) => (
                  <td
                    key={k}
                    class={[c.numeric ? 'num' : '', c.cited ? 'cited' : ''].join(' ').trim() || undefined}
                    data-cited={c.cited ? 'true' : undefined}
                    title={c.cited ? 'The figure the answer cites' : undefined}
                  >
                    {c.text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hidden > 0 && (
        <button class="link" onClick={() => setAll(true)}>
          Show all {view.rows.length} rows
        </button>
      )}
    </figure>
  );
}

/**
 * What a citation's passage says, under its chip: a table drawn as a table (never its Markdown),
 * prose as an excerpt with the quoted words marked. Nothing until the chunk is read; nothing when
 * it could not be (the chip still opens the page).
 */
export function PassageBody({ citation, chunk }: { citation: Citation; chunk: ChunkRecord | undefined }) {
  if (!chunk) return null;
  if (chunk.table) return <CitedTable table={chunk.table} caption={tableCaption(chunk.body, chunk.table.title)} {...(citation.cell ? { cell: citation.cell } : {})} />;
  const { before, quoted, after } = passageExcerpt(chunk.body, citation.quote);
  return (
    <blockquote class="passage-text">
      {before}
      {quoted && <mark>{quoted}</mark>}
      {after}
    </blockquote>
  );
}
