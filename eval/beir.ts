import { createReadStream, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PermanentError } from '../shared/errors.ts';

/** One corpus document of a BEIR dataset. */
export interface BeirDoc {
  /** The dataset's own id (`_id`), exactly as written. */
  id: string;
  title: string;
  text: string;
}

/** One query of a BEIR dataset. */
export interface BeirQuery {
  id: string;
  text: string;
}

/** Relevance judgments: query id → (doc id → graded relevance; 0 means judged not relevant). */
export type Qrels = Map<string, Map<string, number>>;

/** A loaded BEIR split: the whole corpus, and only the queries the split's qrels judge. */
export interface BeirDataset {
  /** Folder name, e.g. `scifact`. */
  name: string;
  split: string;
  corpus: BeirDoc[];
  /** Queries present in the split's qrels, in queries.jsonl order. */
  queries: BeirQuery[];
  qrels: Qrels;
  /** Judgments naming a doc id absent from the corpus (they still count in the ideal ranking). */
  unknownJudgedDocs: number;
}

/** Options of {@link loadBeir}. */
export interface LoadBeirOptions {
  /**
   * Keep only the first N judged queries (in queries.jsonl order) — for quick runs.
   * @defaultValue every judged query
   */
  limitQueries?: number;
}

/**
 * Malformed dataset input. The message starts with `file:line` so it can be opened directly.
 */
export class BeirFormatError extends PermanentError {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super('INVALID_PAYLOAD', `${file}:${line}: ${reason}`);
  }
}

/** Calls `onLine` for every non-blank line with its 1-based number, streaming the file. */
async function forEachLine(file: string, onLine: (line: string, lineNo: number) => void): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo += 1;
    // A UTF-8 BOM on the first line would otherwise make valid JSON unparsable.
    const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    onLine(line, lineNo);
  }
}

function parseObject(file: string, lineNo: number, line: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new BeirFormatError(file, lineNo, `not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BeirFormatError(file, lineNo, 'expected a JSON object');
  }
  return value as Record<string, unknown>;
}

/** BEIR writes ids as strings, but some exports write numbers; both mean the same id. */
function idField(file: string, lineNo: number, obj: Record<string, unknown>): string {
  const id = obj._id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  throw new BeirFormatError(file, lineNo, 'missing "_id" (a non-empty string)');
}

function textField(file: string, lineNo: number, obj: Record<string, unknown>, key: string, required: boolean): string {
  const value = obj[key];
  if (typeof value === 'string') return value;
  if ((value === undefined || value === null) && !required) return '';
  throw new BeirFormatError(file, lineNo, `"${key}" must be a string`);
}

function requireFile(file: string, what: string): void {
  if (existsSync(file)) return;
  let hint = '';
  // A missing split is the common mistake (most BEIR sets ship only test.tsv): name the ones there are.
  const dir = path.dirname(file);
  if (path.basename(dir) === 'qrels' && existsSync(dir)) {
    const splits = readdirSync(dir).filter((f) => f.endsWith('.tsv')).map((f) => f.slice(0, -4));
    hint = `; splits present: ${splits.join(', ') || 'none'}`;
  }
  throw new PermanentError('INVALID_PAYLOAD', `${what} not found: ${file}${hint}`);
}

/**
 * Reads `qrels/<split>.tsv`: `query-id<TAB>corpus-id<TAB>score`, with BEIR's optional header line.
 * Also accepts TREC's four-column form (`qid 0 docid rel`), which some BEIR exports use.
 *
 * @throws BeirFormatError for a malformed line, a non-integer score or a repeated judgment.
 */
export async function loadQrels(file: string): Promise<Qrels> {
  requireFile(file, 'qrels file');
  const qrels: Qrels = new Map();
  let first = true;
  await forEachLine(file, (line, lineNo) => {
    // Tab-separated as BEIR writes it; whitespace-separated only for TREC-style files without tabs.
    const cols = (line.includes('\t') ? line.split('\t') : line.split(/\s+/)).map((c) => c.trim()).filter((c) => c !== '');
    const isHeader = first && /query/i.test(cols[0] ?? '') && !/^-?\d+$/.test(cols[cols.length - 1] ?? '');
    first = false;
    if (isHeader) return;
    if (cols.length !== 3 && cols.length !== 4) {
      throw new BeirFormatError(file, lineNo, `expected "query-id corpus-id score", got ${cols.length} column(s)`);
    }
    const [queryId, docId, score] = (cols.length === 3 ? cols : [cols[0], cols[2], cols[3]]) as [string, string, string];
    if (!/^-?\d+$/.test(score)) throw new BeirFormatError(file, lineNo, `score "${score}" is not an integer`);
    let judged = qrels.get(queryId);
    if (!judged) qrels.set(queryId, (judged = new Map()));
    if (judged.has(docId)) throw new BeirFormatError(file, lineNo, `query ${queryId} judges ${docId} twice`);
    judged.set(docId, Number.parseInt(score, 10));
  });
  return qrels;
}

/**
 * Reads `queries.jsonl`, keeping only the ids in `wanted` (those the split judges).
 *
 * @throws BeirFormatError for malformed JSON, a missing `_id`/`text`, or a repeated id.
 */
export async function loadQueries(file: string, wanted: ReadonlySet<string>): Promise<BeirQuery[]> {
  requireFile(file, 'queries file');
  const queries: BeirQuery[] = [];
  const seen = new Set<string>();
  await forEachLine(file, (line, lineNo) => {
    const obj = parseObject(file, lineNo, line);
    const id = idField(file, lineNo, obj);
    const text = textField(file, lineNo, obj, 'text', true);
    if (seen.has(id)) throw new BeirFormatError(file, lineNo, `query id ${id} appears twice`);
    seen.add(id);
    if (wanted.has(id)) queries.push({ id, text });
  });
  return queries;
}

/**
 * Streams `corpus.jsonl` to `onDoc`, one document at a time (a large corpus is never held as text
 * by the loader itself).
 *
 * @throws BeirFormatError for malformed JSON, a missing `_id`, a non-string title/text, or a
 *   repeated id.
 */
export async function streamCorpus(file: string, onDoc: (doc: BeirDoc) => void): Promise<number> {
  requireFile(file, 'corpus file');
  const seen = new Set<string>();
  await forEachLine(file, (line, lineNo) => {
    const obj = parseObject(file, lineNo, line);
    const id = idField(file, lineNo, obj);
    if (seen.has(id)) throw new BeirFormatError(file, lineNo, `document id ${id} appears twice`);
    seen.add(id);
    onDoc({ id, title: textField(file, lineNo, obj, 'title', false), text: textField(file, lineNo, obj, 'text', false) });
  });
  return seen.size;
}

/**
 * Loads a BEIR-layout folder (`corpus.jsonl`, `queries.jsonl`, `qrels/<split>.tsv`). Only queries
 * the split's qrels judge are returned, as BEIR evaluates them; a judged query missing from
 * queries.jsonl is an error, because dropping it silently would inflate every average.
 *
 * @throws PermanentError `INVALID_PAYLOAD` when a file is missing, or a {@link BeirFormatError}
 *   naming the file and line of malformed input.
 */
export async function loadBeir(dir: string, split: string, options: LoadBeirOptions = {}): Promise<BeirDataset> {
  const qrelsFile = path.join(dir, 'qrels', `${split}.tsv`);
  const qrels = await loadQrels(qrelsFile);
  const queries = await loadQueries(path.join(dir, 'queries.jsonl'), new Set(qrels.keys()));
  if (queries.length !== qrels.size) {
    const found = new Set(queries.map((q) => q.id));
    const missing = [...qrels.keys()].filter((id) => !found.has(id));
    throw new PermanentError(
      'INVALID_PAYLOAD',
      `${qrelsFile}: ${missing.length} judged query id(s) not in queries.jsonl: ${missing.slice(0, 5).join(', ')}`,
    );
  }
  const limit = options.limitQueries;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new PermanentError('INVALID_CONFIG', `limitQueries must be a positive integer, got ${limit}`);
  }
  const kept = limit === undefined ? queries : queries.slice(0, limit);
  const keptQrels: Qrels = new Map(kept.map((q) => [q.id, qrels.get(q.id) as Map<string, number>]));

  const corpus: BeirDoc[] = [];
  await streamCorpus(path.join(dir, 'corpus.jsonl'), (doc) => corpus.push(doc));
  const corpusIds = new Set(corpus.map((d) => d.id));
  let unknownJudgedDocs = 0;
  for (const judged of keptQrels.values()) for (const docId of judged.keys()) if (!corpusIds.has(docId)) unknownJudgedDocs += 1;

  return { name: path.basename(path.resolve(dir)), split, corpus, queries: kept, qrels: keptQrels, unknownJudgedDocs };
}
