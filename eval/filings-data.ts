import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** A malformed filings dataset: the message names the file (and line when it is the CSV). */
export class FilingsFormatError extends Error {
  override name = 'FilingsFormatError';
}

/**
 * Parses RFC 4180 CSV: quoted fields may hold commas, doubled quotes and newlines (CRLF or LF);
 * a leading UTF-8 byte-order mark is dropped. Returns rows of raw fields; blank lines are skipped.
 * @throws FilingsFormatError for a quote left open at the end of the text.
 */
export function parseCsv(text: string): string[][] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let openedAt = 0;
  const endRow = (): void => {
    row.push(field);
    // A line with nothing on it is not a row with one empty field.
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      openedAt = line;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      line++;
      endRow();
    } else field += c;
  }
  if (quoted) throw new FilingsFormatError(`unterminated quoted field opened on line ${openedAt}`);
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/**
 * Matches a file-name glob as the dataset writes `Source Docs` (`*AAPL*`, `*2023 Q3 NVDA*`):
 * `*` is any run of characters, `?` one character, everything else literal; case-insensitive,
 * and the `.pdf` extension may be left out of the pattern.
 */
export function globMatches(glob: string, fileName: string): boolean {
  const escaped = glob
    .trim()
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^${escaped}$`, 'i');
  return re.test(fileName) || re.test(fileName.replace(/\.pdf$/i, ''));
}

/** One question of the dataset with the files that hold its answer. */
export interface FilingQuestion {
  /** `q<row number>`, 1-based in CSV data rows. */
  id: string;
  text: string;
  /** The `Source Docs` glob(s) as written. */
  sourceGlob: string;
  /** File names in `docs/` the glob matches. */
  sourceFiles: string[];
  questionType: string;
  chunkType: string;
  answer: string;
}

/** A loaded filings dataset: PDFs in `docs/`, questions from `qna_data.csv`. */
export interface FilingsDataset {
  name: string;
  dir: string;
  /** File names in `docs/`, sorted. */
  files: string[];
  questions: FilingQuestion[];
  /** Questions whose glob matched no file (kept out of `questions`). */
  unmatchedQuestions: number;
}

const REQUIRED_COLUMNS = ['Question', 'Source Docs', 'Answer'] as const;

/** True when `dir` looks like a filings dataset (`docs/` and `qna_data.csv`) rather than BEIR. */
export function isFilingsDataset(dir: string): boolean {
  return existsSync(path.join(dir, 'qna_data.csv')) && existsSync(path.join(dir, 'docs'));
}

/**
 * Turns CSV rows into questions, resolving each `Source Docs` glob (several may be separated by
 * commas or newlines) against `files`.
 * @throws FilingsFormatError when a required column is missing.
 */
export function questionsFromCsv(rows: readonly string[][], files: readonly string[]): { questions: FilingQuestion[]; unmatched: number } {
  const [header, ...data] = rows;
  if (!header) throw new FilingsFormatError('qna_data.csv: empty file');
  const col = (name: string): number => header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
  for (const name of REQUIRED_COLUMNS) {
    if (col(name) < 0) throw new FilingsFormatError(`qna_data.csv: no "${name}" column (header: ${header.join(', ')})`);
  }
  const at = (row: readonly string[], name: string): string => {
    const i = col(name);
    return i < 0 ? '' : (row[i] ?? '').trim();
  };
  const questions: FilingQuestion[] = [];
  let unmatched = 0;
  data.forEach((row, i) => {
    const sourceGlob = at(row, 'Source Docs');
    const globs = sourceGlob.split(/[,\n]/).map((g) => g.trim()).filter((g) => g !== '');
    const sourceFiles = files.filter((f) => globs.some((g) => globMatches(g, f)));
    if (sourceFiles.length === 0) {
      unmatched++;
      return;
    }
    questions.push({
      id: `q${i + 1}`,
      text: at(row, 'Question'),
      sourceGlob,
      sourceFiles,
      questionType: at(row, 'Question Type'),
      chunkType: at(row, 'Source Chunk Type'),
      answer: at(row, 'Answer'),
    });
  });
  return { questions, unmatched };
}

/**
 * Loads a filings dataset folder (read where it is, never copied).
 * @throws FilingsFormatError for a missing `docs/` or CSV, or a malformed CSV.
 */
export async function loadFilings(dir: string, opts: { limitQuestions?: number } = {}): Promise<FilingsDataset> {
  if (!isFilingsDataset(dir)) throw new FilingsFormatError(`${dir}: expected docs/ and qna_data.csv`);
  const files = (await readdir(path.join(dir, 'docs'))).filter((f) => /\.pdf$/i.test(f)).sort();
  if (files.length === 0) throw new FilingsFormatError(`${path.join(dir, 'docs')}: no PDF files`);
  const rows = parseCsv(await readFile(path.join(dir, 'qna_data.csv'), 'utf8'));
  const { questions, unmatched } = questionsFromCsv(rows, files);
  const limited = opts.limitQuestions !== undefined ? questions.slice(0, opts.limitQuestions) : questions;
  return { name: path.basename(path.resolve(dir)), dir, files, questions: limited, unmatchedQuestions: unmatched };
}
