export * from './ids.ts';
export * from './document.ts';
export * from './extracted.ts';
export * from './section.ts';
export * from './chunk.ts';
export * from './artifacts.ts';
export * from './coverage.ts';
export * from './table.ts';
