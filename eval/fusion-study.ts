/*
 * npx tsx eval/fusion-study.ts --dataset <beir-folder> [--split test] [--limit-queries N] [--candidates 1000]
 *
 * Why does (or doesn't) hybrid beat keyword-only? Fetches each side's candidates ONCE through the
 * VectorStore port (alpha 0 → raw BM25, alpha 1 → raw cosine), then compares, offline:
 * - how complementary the sides are (relevant docs one side finds in its top 10 and the other not);
 * - how each side's raw scores are spread (what min-max normalisation stretches);
 * - fusion rules (store rsf, DBSF, RRF) over an alpha grid, at 100 candidates per side (what the
 *   store does) and at the deeper `--candidates`.
 * The embedder comes from the environment, as in `npm run eval`.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/config/config.ts';
import { createEmbedder } from '../shared/embed/index.ts';
import { FUSIONS, type ScoredId } from './fusion.ts';
import { prepareEvaluation, type PreparedEvaluation } from './harness.ts';
import { evaluateRun, type Evaluation, type Metrics } from './metrics.ts';

/** One query's candidates per side, keyed by chunk id (the store's own fusion key and tie-break). */
interface Sides {
  keyword: ScoredId[];
  vector: ScoredId[];
}

/** Chunk id → BEIR doc id, for scoring fused chunk-id lists. */
type ChunkToBeir = Map<string, string>;

const ALPHAS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/**
 * Both sides' candidates per query with raw scores, best first. Ids are chunk ids, as the store
 * fuses them, so the offline rsf reproduces the store's hybrid exactly, ties included.
 */
async function fetchSides(p: PreparedEvaluation, depth: number): Promise<{ sides: Map<string, Sides>; toBeir: ChunkToBeir }> {
  const sides = new Map<string, Sides>();
  const toBeir: ChunkToBeir = new Map();
  for (const q of p.queries) {
    const kw = await p.store.hybrid({ text: q.text, vector: q.vector, alpha: 0, limit: depth });
    const vec = await p.store.hybrid({ text: q.text, vector: q.vector, alpha: 1, limit: depth });
    for (const h of [...kw, ...vec]) toBeir.set(h.chunk.chunk_id, p.ids.toBeir(h.chunk.doc_id) ?? h.chunk.doc_id);
    sides.set(q.id, {
      keyword: kw.map((h) => ({ id: h.chunk.chunk_id, score: h.bm25 ?? 0 })),
      vector: vec.map((h) => ({ id: h.chunk.chunk_id, score: h.cosine ?? 0 })),
    });
  }
  return { sides, toBeir };
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function fmt(x: number): string {
  return x.toFixed(4);
}

/** Relevant documents found in the top k by each side, alone and together. */
function complementarity(p: PreparedEvaluation, sides: Map<string, Sides>, toBeir: ChunkToBeir, k: number): string {
  const beir = (id: string): string => toBeir.get(id) ?? id;
  let relevant = 0;
  let both = 0;
  let kwOnly = 0;
  let vecOnly = 0;
  for (const [qid, s] of sides) {
    const kwTop = new Set(s.keyword.slice(0, k).map((h) => beir(h.id)));
    const vecTop = new Set(s.vector.slice(0, k).map((h) => beir(h.id)));
    for (const [doc, rel] of p.data.qrels.get(qid) ?? []) {
      if (rel <= 0) continue;
      relevant += 1;
      if (kwTop.has(doc) && vecTop.has(doc)) both += 1;
      else if (kwTop.has(doc)) kwOnly += 1;
      else if (vecTop.has(doc)) vecOnly += 1;
    }
  }
  const neither = relevant - both - kwOnly - vecOnly;
  const pct = (n: number): string => `${n} (${((100 * n) / Math.max(1, relevant)).toFixed(1)}%)`;
  return `relevant docs in the top ${k}: both sides ${pct(both)}, keyword only ${pct(kwOnly)}, vector only ${pct(vecOnly)}, neither ${pct(neither)} — of ${relevant}`;
}

/** Where each side ranks the relevant documents it returns at all, and the raw score they get. */
function relevantRanks(p: PreparedEvaluation, sides: Map<string, Sides>, toBeir: ChunkToBeir): string[] {
  return (['keyword', 'vector'] as const).map((side) => {
    const ranks: number[] = [];
    const scores: number[] = [];
    for (const [qid, s] of sides) {
      for (const [doc, rel] of p.data.qrels.get(qid) ?? []) {
        if (rel <= 0) continue;
        const r = s[side].findIndex((h) => (toBeir.get(h.id) ?? h.id) === doc);
        if (r < 0) continue;
        ranks.push(r + 1);
        scores.push((s[side][r] as ScoredId).score);
      }
    }
    return `${side.padEnd(7)} returns ${ranks.length} relevant docs among its candidates; median rank ${median(ranks)}, mean raw score ${fmt(mean(scores))}`;
  });
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Mean raw score at ranks 1, 10 and 100 of each side, and the top-1 lead after min-max scaling. */
function spread(sides: Map<string, Sides>): string[] {
  const lines: string[] = [];
  for (const side of ['keyword', 'vector'] as const) {
    const at = (r: number): number => mean([...sides.values()].flatMap((s) => (s[side][r - 1] ? [s[side][r - 1]!.score] : [])));
    // After min-max over 100, rank 2 sits at (s2 - s100) / (s1 - s100): how far below 1 is it?
    const lead = mean(
      [...sides.values()].flatMap((s) => {
        const l = s[side].slice(0, 100);
        if (l.length < 3) return [];
        const [s1, s2, sN] = [l[0]!.score, l[1]!.score, l[l.length - 1]!.score];
        return s1 === sN ? [] : [1 - (s2 - sN) / (s1 - sN)];
      }),
    );
    const at10 = mean(
      [...sides.values()].flatMap((s) => {
        const l = s[side].slice(0, 100);
        if (l.length < 10) return [];
        const [s1, s10, sN] = [l[0]!.score, l[9]!.score, l[l.length - 1]!.score];
        return s1 === sN ? [] : [(s10 - sN) / (s1 - sN)];
      }),
    );
    lines.push(
      `${side.padEnd(7)} raw score @1 ${fmt(at(1))}  @10 ${fmt(at(10))}  @100 ${fmt(at(100))};  min-max over 100: rank-1 lead ${fmt(lead)}, rank 10 at ${fmt(at10)}`,
    );
  }
  // Min-max maps a list's LAST hit to 0, the score of a document the side never found: on a short
  // list that throws away real evidence, so say how often it happens.
  const short = [...sides.values()].filter((s) => s.keyword.length < 100).length;
  lines.push(`keyword lists shorter than 100 hits: ${short} of ${sides.size} queries`);
  return lines;
}

/**
 * Mean over queries of each query's best nDCG@10 over the alphas: what a rule that picked the
 * right alpha for every query would score. No real rule gets there (it would need the qrels),
 * so a small gap between this and the best single alpha means no query-dependent alpha
 * (planner cues, score-shape features) can pay much with these two sides.
 */
function perQueryBestMean(perAlpha: readonly Evaluation[]): number {
  const best = new Map<string, number>();
  for (const e of perAlpha) for (const [q, m] of e.perQuery) best.set(q, Math.max(best.get(q) ?? 0, m.ndcg10));
  return mean([...best.values()]);
}

function fusionGrid(p: PreparedEvaluation, sides: Map<string, Sides>, toBeir: ChunkToBeir, perSide: number): { lines: string[]; grid: Record<string, Record<string, Metrics>>; ceiling: Record<string, number> } {
  const grid: Record<string, Record<string, Metrics>> = {};
  const ceiling: Record<string, number> = {};
  const lines = [
    `candidates per side ${perSide}; nDCG@10 (R@100) by alpha; last column: each query at its own best alpha (a ceiling, see perQueryBestMean)`,
    `        ${ALPHAS.map((a) => a.toFixed(1).padStart(15)).join('')}${'per-query'.padStart(11)}`,
  ];
  for (const [name, fuse] of Object.entries(FUSIONS)) {
    grid[name] = {};
    const cells: string[] = [];
    const evaluations: Evaluation[] = [];
    for (const alpha of ALPHAS) {
      const run = new Map<string, string[]>();
      for (const [qid, s] of sides) {
        const fused = fuse(s.keyword.slice(0, perSide), s.vector.slice(0, perSide), alpha, 100);
        run.set(qid, fused.map((id) => toBeir.get(id) ?? id));
      }
      const e = evaluateRun(p.data.qrels, run);
      evaluations.push(e);
      grid[name][alpha.toFixed(1)] = e.mean;
      cells.push(`${fmt(e.mean.ndcg10)} (${e.mean.recall100.toFixed(3)})`.padStart(15));
    }
    ceiling[name] = perQueryBestMean(evaluations);
    lines.push(`${name.padEnd(8)}${cells.join('')}${fmt(ceiling[name]).padStart(11)}`);
  }
  return { lines, grid, ceiling };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      split: { type: 'string', default: 'test' },
      'limit-queries': { type: 'string' },
      candidates: { type: 'string', default: '1000' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.dataset) throw new Error('--dataset is required');
  const deep = Number(values.candidates);
  if (!Number.isInteger(deep) || deep < 100) throw new Error('--candidates must be an integer ≥ 100');
  const config = loadConfig(process.env);
  const embedder = createEmbedder(config.embedder);
  const limit = values['limit-queries'] !== undefined ? Number(values['limit-queries']) : undefined;
  const p = await prepareEvaluation({
    dataset: values.dataset,
    split: values.split,
    embedder,
    embedBatchSize: config.embedder.batchSize,
    ...(limit !== undefined ? { limitQueries: limit } : {}),
    log: (l) => console.error(l),
  });
  try {
    console.error(`fetching ${deep} candidates per side for ${p.queries.length} queries`);
    const { sides, toBeir } = await fetchSides(p, deep);
    const at100 = fusionGrid(p, sides, toBeir, 100);
    // At --candidates 100 the deep grid would repeat the store-depth grid line for line.
    const atDeep = deep > 100 ? fusionGrid(p, sides, toBeir, deep) : { lines: [], grid: {}, ceiling: {} };
    if (values.json) {
      const deepKeys = deep > 100 ? { [`grid${deep}`]: atDeep.grid, [`perQueryBest${deep}`]: atDeep.ceiling } : {};
      console.log(JSON.stringify({ embedder: embedder.model, grid100: at100.grid, perQueryBest100: at100.ceiling, ...deepKeys }));
      return;
    }
    console.log(`embedder ${embedder.model}; ${p.queries.length} queries`);
    console.log(
      ['', complementarity(p, sides, toBeir, 10), complementarity(p, sides, toBeir, 100), ...relevantRanks(p, sides, toBeir), '', ...spread(sides), ''].join('\n'),
    );
    console.log([...at100.lines, ...(atDeep.lines.length ? ['', ...atDeep.lines] : [])].join('\n'));
  } finally {
    await p.dispose();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
