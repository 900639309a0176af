/**
 * Tables read from line positions: detection, columns, headers, captions, rows and values,
 * continuations across pages, their Markdown and the row facts of their embedding text.
 * May import the rest of shared/; never apps/, core/, workers/ or queues/.
 * Entry points: placeTables (sectionizing), renderTable, rowFacts.
 */

export { factsByRow, labelPath, rowFacts } from './facts.ts';
export { renderTable, rowLine } from './markdown.ts';
export { placeTables, type SectionsWithTables } from './sections.ts';
