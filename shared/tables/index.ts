export { factsByRow, labelPath, rowFacts } from './facts.ts';
export { renderTable, rowLine } from './markdown.ts';
export { placeTables, type SectionsWithTables } from './sections.ts';
