import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES, resolvePolicy } from '../../shared/chunk/policy.ts';
import { splitSentences } from '../../shared/chunk/sentences.ts';
import { countWithin, createCl100kCounter, type TokenCounter } from '../../shared/chunk/tokenizer.ts';
import { Chunk, chunkIdFor, type Section } from '../../shared/domain/index.ts';
import { chunkStage } from '../../workers/chunk/chunk.stage.ts';

const counter = createCl100kCounter();
const VERSION = 'b'.repeat(64);
const policy = resolvePolicy(DEFAULT_CHUNK_POLICIES, 'manual');

/** Deterministic pseudo-random prose: sentences of 8–30 words. */
function prose(seed: number, sentences: number): string {
  const words = ['data', 'controller', 'retention', 'backup', 'policy', 'the', 'system', 'must', 'record', 'each', 'request', 'within', 'thirty', 'days', 'and', 'review', 'access', 'logs', 'quarterly', 'for', 'compliance', 'audit', 'purposes', 'under', 'applicable', 'law'];
  let x = seed;
  const rnd = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const out: string[] = [];
  for (let s = 0; s < sentences; s += 1) {
    const len = 8 + rnd(23);
    const w = Array.from({ length: len }, () => words[rnd(words.length)] as string);
    w[0] = (w[0] as string).charAt(0).toUpperCase() + (w[0] as string).slice(1);
    out.push(`${w.join(' ')}.`);
  }
  return out.join(' ');
}

let order = 0;
function section(path: string[], text: string, pageStart = 1, pageEnd = pageStart): Section {
  const title = path[path.length - 1] ?? '';
  return { id: `s${order}`, title, heading: title.toLowerCase(), path, level: Math.max(1, path.length), order: order++, text, pageStart, pageEnd, source: 'pattern' };
}

function run(sections: Section[], docType = 'manual'): Chunk[] {
  return chunkStage({ docId: 'doc-test', version: VERSION, docType, sections }, DEFAULT_CHUNK_POLICIES);
}

describe('chunkStage — one chunk per fitting section', () => {
  it('fills every field and validates against the Chunk schema', () => {
    const text = prose(1, 20);
    const chunks = run([section(['Guide', 'Backups'], text, 4, 5)]);
    expect(chunks).toHaveLength(1);
    const [c] = chunks;
    if (!c) throw new Error('no chunk');
    expect(() => Chunk.parse(c)).not.toThrow();
    expect(c.body).toBe(text);
    expect(c.section).toBe('backups');
    expect(c.section_path).toBe('Guide > Backups');
    expect(c.embedding_text).toBe(`Guide > Backups\n\n${text}`);
    expect([c.page_start, c.page_end]).toEqual([4, 5]);
    expect([c.chunk_index, c.total_chunks]).toEqual([0, 1]);
    expect(c.token_count).toBe(counter.count(text));
    expect(c.chunk_id).toBe(chunkIdFor('doc-test', 'Guide > Backups', text, 0));
  });

  it('skips blank sections and uses the bare body when there is no breadcrumb', () => {
    const chunks = run([section([], `Preamble. ${prose(2, 10)}`), section(['Empty'], '   \n ')]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.embedding_text).toBe(chunks[0]?.body);
  });

  it('returns no chunks for no text', () => {
    expect(run([])).toEqual([]);
  });
});

describe('chunkStage — splitting big sections', () => {
  const big = prose(7, 220);
  const chunks = run([section(['A'], prose(3, 25), 1, 1), section(['Big'], big, 3, 9), section(['C'], prose(5, 25), 10, 10)]);
  const split = chunks.filter((c) => c.section_path === 'Big');

  it('keeps every chunk within [min, max] tokens', () => {
    expect(split.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.token_count).toBe(counter.count(c.body));
      expect(c.token_count).toBeLessThanOrEqual(policy.maxTokens);
      expect(c.token_count).toBeGreaterThanOrEqual(policy.minTokens);
    }
  });

  it('packs towards the target', () => {
    const middle = split.slice(0, -1);
    const mean = middle.reduce((s, c) => s + c.token_count, 0) / middle.length;
    expect(mean).toBeGreaterThan(policy.targetTokens * 0.8);
    expect(mean).toBeLessThan(policy.targetTokens * 1.2);
  });

  it('overlaps consecutive chunks of the split section with whole trailing sentences', () => {
    for (let i = 1; i < split.length; i += 1) {
      const prev = splitSentences((split[i - 1] as Chunk).body);
      const cur = splitSentences((split[i] as Chunk).body);
      // Find k ≥ 1 such that the last k sentences of prev open cur.
      let k = 0;
      for (let n = 1; n <= prev.length; n += 1) {
        if (prev.slice(-n).every((s, j) => cur[j] === s)) k = n;
      }
      expect(k).toBeGreaterThanOrEqual(1);
      const overlapTokens = counter.count(prev.slice(-k).join(' '));
      expect(overlapTokens).toBeLessThanOrEqual(policy.overlapTokens + 2);
    }
  });

  it('does not overlap across sections', () => {
    const a = chunks.find((c) => c.section_path === 'A');
    const firstBig = split[0];
    const lastBig = split[split.length - 1];
    const c = chunks.find((x) => x.section_path === 'C');
    if (!a || !firstBig || !lastBig || !c) throw new Error('missing chunk');
    expect(firstBig.body.startsWith(big.slice(0, 40))).toBe(true);
    const lastSentence = splitSentences(lastBig.body).pop() ?? '';
    expect(c.body.includes(lastSentence)).toBe(false);
    expect(firstBig.body.includes(splitSentences(a.body).pop() ?? '')).toBe(false);
  });

  it('covers every sentence of the section, in order', () => {
    const expected = splitSentences(big);
    const seen: string[] = [];
    for (const c of split) for (const s of splitSentences(c.body)) if (seen[seen.length - 1] !== s && !seen.includes(s)) seen.push(s);
    expect(seen).toEqual(expected.filter((s, i) => expected.indexOf(s) === i));
  });

  it('tracks pages proportionally through the section', () => {
    expect(split[0]?.page_start).toBe(3);
    expect(split[split.length - 1]?.page_end).toBe(9);
    for (let i = 0; i < split.length; i += 1) {
      const c = split[i] as Chunk;
      expect(c.page_start).toBeGreaterThanOrEqual(3);
      expect(c.page_end).toBeLessThanOrEqual(9);
      expect(c.page_end).toBeGreaterThanOrEqual(c.page_start);
      if (i > 0) expect(c.page_start).toBeGreaterThanOrEqual((split[i - 1] as Chunk).page_start);
    }
  });

  it('numbers chunks in document order', () => {
    expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
    expect(new Set(chunks.map((c) => c.total_chunks))).toEqual(new Set([chunks.length]));
    expect(chunks[0]?.section_path).toBe('A');
    expect(chunks[chunks.length - 1]?.section_path).toBe('C');
  });

  it('never leaves a stub tail', () => {
    const tail = prose(11, 70);
    const out = run([section(['T'], tail)]);
    expect(out.length).toBeGreaterThan(1);
    for (const c of out) expect(c.token_count).toBeGreaterThanOrEqual(policy.minTokens);
  });
});

describe('chunkStage — lists and tables stay whole', () => {
  const list = Array.from({ length: 8 }, (_, i) => `- Requirement ${i}: keep ${i + 2} copies of every backup for audit.`).join('\n');
  const table = ['| Plan | Price | Seats |', '|---|---|---|', ...Array.from({ length: 10 }, (_, i) => `| Plan ${i} | ${i * 9} USD | ${i + 1} |`)].join('\n');
  const text = `${prose(21, 30)}\n${list}\n${prose(22, 30)}\n${table}\n${prose(23, 30)}`;
  const chunks = run([section(['Ops'], text)]);

  it('puts each list and table into exactly one chunk, intact', () => {
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.filter((c) => c.body.includes(list))).toHaveLength(1);
    expect(chunks.filter((c) => c.body.includes(table))).toHaveLength(1);
    // No chunk holds a piece of a list or table without holding all of it.
    for (const c of chunks) {
      if (c.body.includes('- Requirement 3')) expect(c.body.includes(list)).toBe(true);
      if (c.body.includes('| Plan 5 |')) expect(c.body.includes(table)).toBe(true);
    }
  });

  it('splits an oversized list only between items', () => {
    const items = Array.from({ length: 120 }, (_, i) => `${i + 1}. The operator shall verify control number ${i} before the nightly backup starts.`);
    const out = run([section(['Checklist'], items.join('\n'))]);
    expect(out.length).toBeGreaterThan(1);
    for (const c of out) {
      expect(c.token_count).toBeLessThanOrEqual(policy.maxTokens);
      for (const line of c.body.split('\n')) expect(items).toContain(line);
    }
    const covered = new Set(out.flatMap((c) => c.body.split('\n')));
    expect(covered.size).toBe(items.length);
  });
});

describe('chunkStage — merging tiny sections', () => {
  it('merges tiny siblings under their parent, keeping each title as a line', () => {
    const chunks = run([
      section(['1 Intro'], ''),
      section(['1 Intro', '1.1 Scope'], 'This guide covers backups.'),
      section(['1 Intro', '1.2 Audience'], 'Operators and auditors.'),
      section(['1 Intro', '1.3 Terms'], 'RPO means recovery point objective.'),
      section(['2 Setup'], ''),
      section(['2 Setup', '2.1 Install'], 'Run the installer.'),
      section(['2 Setup', '2.2 Configure'], 'Edit the config file.'),
    ]);
    expect(chunks).toHaveLength(2);
    const [intro, setup] = chunks;
    expect(intro?.section_path).toBe('1 Intro');
    expect(intro?.section).toBe('1 intro');
    expect(intro?.body).toBe('1.1 Scope\nThis guide covers backups.\n\n1.2 Audience\nOperators and auditors.\n\n1.3 Terms\nRPO means recovery point objective.');
    expect(setup?.section_path).toBe('2 Setup');
    expect(setup?.body).toContain('2.1 Install\nRun the installer.');
    expect(setup?.body).toContain('2.2 Configure');
  });

  it("merges a section's tiny lead text with its children, filed under that section", () => {
    const chunks = run([
      section(['Preamble'], 'Records Exchange Protocol, version 1.1.'),
      section(['4 Message Format'], ''),
      section(['4 Message Format', '4.1 Envelope'], 'The envelope is a JSON object.'),
      section(['4 Message Format', '4.1 Envelope', '4.1.1 Header Fields'], 'Every envelope has a Record-Id.'),
      section(['4 Message Format', '4.1 Envelope', '4.1.2 Labels'], 'An envelope should carry a label.'),
      section(['4 Message Format', '4.2 Payload'], prose(61, 12)),
    ]);
    expect(chunks.map((c) => c.section_path)).toEqual(['Preamble', '4 Message Format > 4.1 Envelope', '4 Message Format > 4.2 Payload']);
    expect(chunks[1]?.section).toBe('4.1 envelope');
    expect(chunks[1]?.body).toBe('4.1 Envelope\nThe envelope is a JSON object.\n\n4.1.1 Header Fields\nEvery envelope has a Record-Id.\n\n4.1.2 Labels\nAn envelope should carry a label.');
  });

  it('never merges across parents', () => {
    const chunks = run([section(['A', 'a1'], 'Tiny one.'), section(['B', 'b1'], 'Tiny two.')]);
    expect(chunks.map((c) => c.section_path)).toEqual(['A > a1', 'B > b1']);
  });

  it('does not merge sections that are big enough on their own', () => {
    const chunks = run([section(['P', 'x'], prose(31, 12)), section(['P', 'y'], prose(32, 12))]);
    expect(chunks.map((c) => c.section_path)).toEqual(['P > x', 'P > y']);
  });

  it('stops merging before the merged body would pass max', () => {
    const parts = Array.from({ length: 12 }, (_, i) => section(['P', `part ${i}`], prose(40 + i, 5)));
    const chunks = run(parts);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.token_count).toBeLessThanOrEqual(policy.maxTokens);
    for (const p of parts) expect(chunks.filter((c) => c.body.includes(p.text))).toHaveLength(1);
  });

  it('files merged top-level siblings under the first of them', () => {
    const chunks = run([section(['Alpha'], 'Short.'), section(['Beta'], 'Also short.')]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.section_path).toBe('Alpha');
    expect(chunks[0]?.body).toBe('Alpha\nShort.\n\nBeta\nAlso short.');
  });

  it('spans the pages of all merged sections', () => {
    const chunks = run([section(['P', 'x'], 'Tiny.', 2, 2), section(['P', 'y'], 'Tiny too.', 3, 4)]);
    expect([chunks[0]?.page_start, chunks[0]?.page_end]).toEqual([2, 4]);
  });
});

describe('chunkStage — ids', () => {
  const boilerplate = prose(77, 12);
  const sections = [section(['A'], prose(51, 200), 1, 5), section(['B'], boilerplate), section(['C'], prose(52, 10)), section(['B'], boilerplate)];

  it('is deterministic', () => {
    expect(run(sections)).toEqual(run(sections));
  });

  it('gives unique ids, numbering repeats of the same path and body', () => {
    const chunks = run(sections);
    expect(new Set(chunks.map((c) => c.chunk_id)).size).toBe(chunks.length);
    const repeats = chunks.filter((c) => c.section_path === 'B');
    expect(repeats.map((c) => c.chunk_id)).toEqual([
      chunkIdFor('doc-test', 'B', boilerplate, 0),
      chunkIdFor('doc-test', 'B', boilerplate, 1),
    ]);
  });

  it('keeps the id of an unchanged passage when other sections change', () => {
    const before = run(sections).find((c) => c.section_path === 'C');
    const after = run([section(['A'], prose(99, 150), 1, 5), ...sections.slice(1)]).find((c) => c.section_path === 'C');
    expect(after?.chunk_id).toBe(before?.chunk_id);
  });
});

describe('cl100k countWithin', () => {
  const long = prose(7, 200);
  const total = counter.count(long);

  it('is the exact count up to the limit, and over the limit past it', () => {
    expect(total).toBeGreaterThan(1000);
    expect(countWithin(counter, long, total)).toBe(total);
    expect(countWithin(counter, long, total + 50)).toBe(total);
    expect(countWithin(counter, long, total - 1)).toBeGreaterThan(total - 1);
    expect(countWithin(counter, long, 900)).toBeGreaterThan(900);
    // Short and multi-byte texts (counted whole below the byte bound), special-token text as plain text.
    for (const text of ['', 'a', '출산 장려금을 받는다', 'x <|endoftext|> y', '§ 3 — naïve café']) expect(countWithin(counter, text, 900)).toBe(counter.count(text));
  });

  it('gives the same chunks as counting every section whole', () => {
    const plain: TokenCounter = { count: (t) => counter.count(t) };
    const sections = [0, 1, 2, 3].map((i) => section(['Book', `Part ${i}`], prose(100 + i, [3, 60, 200, 12][i] as number), i + 1, i + 2));
    const input = { docId: 'doc-test', version: VERSION, docType: 'manual', sections };
    expect(chunkStage(input, DEFAULT_CHUNK_POLICIES, counter)).toEqual(chunkStage(input, DEFAULT_CHUNK_POLICIES, plain));
  });
});

describe('chunkStage — performance sanity', () => {
  it('chunks a synthetic 300-page document quickly', () => {
    // ~3,000 characters per page, a section every two pages, a list every tenth section.
    const sections: Section[] = [];
    for (let p = 1; p <= 300; p += 2) {
      const list = p % 20 === 1 ? `\n${Array.from({ length: 6 }, (_, i) => `- step ${i} of procedure ${p}`).join('\n')}\n` : '\n';
      sections.push(section(['Book', `Chapter ${Math.ceil(p / 30)}`, `Part ${p}`], `${prose(p, 40)}${list}${prose(p + 1, 40)}`, p, p + 1));
    }
    const chars = sections.reduce((s, x) => s + x.text.length, 0);
    const t0 = performance.now();
    const chunks = run(sections);
    const ms = performance.now() - t0;
    console.info(`chunked 300 pages (${chars} chars, ${sections.length} sections) into ${chunks.length} chunks in ${ms.toFixed(0)} ms`);
    expect(chunks.length).toBeGreaterThan(sections.length);
    for (const c of chunks) expect(c.token_count).toBeLessThanOrEqual(policy.maxTokens);
  });
});
