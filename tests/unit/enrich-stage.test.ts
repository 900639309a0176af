import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICIES } from '../../shared/chunk/policy.ts';
import { DocumentRecord, EnrichedChunk, type Chunk, type DocumentMeta, type Section, type SourceRecord } from '../../shared/domain/index.ts';
import { fileTitle, headingTitle } from '../../shared/enrich/document.ts';
import { chunkStage } from '../../workers/chunk/chunk.stage.ts';
import { enrichStage } from '../../workers/enrich/enrich.stage.ts';

const VERSION = 'd'.repeat(64);

function source(meta: DocumentMeta = {}, sourceKey = 'laws/labor_standards_act.pdf'): SourceRecord {
  return {
    doc_id: 'laws-labor-standards-act-0123456789',
    version: VERSION,
    source_key: sourceKey,
    meta,
    provenance: { source_uri: `file://bucket/${sourceKey}`, sha256: VERSION, fetched_at: '2025-03-01T00:00:00.000Z', collector: 'local-dir', bytes: 1234 },
  };
}

let order = 0;
function section(path: string[], text: string, page = 1): Section {
  const title = path[path.length - 1] ?? '';
  return { id: `s${order}`, title, heading: title, path, level: path.length, order: order++, text, pageStart: page, pageEnd: page, source: 'pattern' };
}

const KO_HEAD = '근로기준법\n[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]\n고용노동부 (근로기준정책과) 044-202-7534';

const koChunks: Chunk[] = chunkStage(
  {
    docId: 'laws-labor-standards-act-0123456789',
    version: VERSION,
    docType: 'law',
    sections: [
      section(['제1장 총칙', '제1조(목적)'], '이 법은 헌법에 따라 근로조건의 기준을 정함으로써 근로자의 기본적 생활을 보장, 향상시키며 균형 있는 국민경제의 발전을 꾀하는 것을 목적으로 한다.'),
      section(['제1장 총칙', '제2조(정의)'], '① 이 법에서 사용하는 용어의 뜻은 다음과 같다.\n1. "근로자"란 직업의 종류와 관계없이 임금을 목적으로 사업이나 사업장에 근로를 제공하는 사람을 말한다.\n2. "사용자"란 사업주 또는 사업 경영 담당자를 말한다.', 2),
      section(['제2장 복지', '제20조(출산 장려금)'], '① 사용자는 출산한 근로자에게 출산장려금을 지급할 수 있다. ② 출산 장려금의 지급 기준은 제2조제1항에 따른다. 근로기준법 제50조를 준용한다.', 3),
    ],
  },
  DEFAULT_CHUNK_POLICIES,
);

function run(meta: DocumentMeta = {}, firstPagesText = KO_HEAD, chunks: Chunk[] = koChunks, info = { title: null as string | null, creationDate: '2019-05-05' as string | null }) {
  return enrichStage({ source: source(meta), extracted: { pageCount: 3, info, firstPagesText }, chunks });
}

describe('enrichStage — Korean statute', () => {
  const out = run();

  it('produces schema-valid records', () => {
    expect(() => DocumentRecord.parse(out.document)).not.toThrow();
    for (const c of out.chunks) expect(() => EnrichedChunk.parse(c)).not.toThrow();
    expect(out.chunks).toHaveLength(koChunks.length);
  });

  it('reads the 시행 date, not the promulgation or creation date, and passes it to every chunk', () => {
    expect(out.document.valid_from).toBe('2025-02-23');
    expect(out.document.valid_to).toBeNull();
    for (const c of out.chunks) expect([c.valid_from, c.valid_to]).toEqual(['2025-02-23', null]);
  });

  it('detects the language and takes the title from the first heading', () => {
    expect(out.document.lang).toBe('ko');
    expect(out.document.title).toBe('근로기준법');
    // Without a sidecar doc_type, the kind the first page shows (a statute: law) is the doc_type.
    expect(out.document.doc_type).toBe('law');
    expect(out.document.jurisdiction).toBe('unknown');
    expect(out.document.page_count).toBe(3);
    expect(out.document.provenance).toEqual(source().provenance);
  });

  it('extracts chunk entities with spacing variants, references and defined terms', () => {
    const all = out.chunks.flatMap((c) => c.entities);
    expect(all).toEqual(expect.arrayContaining(['출산 장려금', '출산장려금', '제2조제1항', '제2조 제1항', '근로기준법 제50조', '근로자', '사용자', '제20조']));
    const welfare = out.chunks.find((c) => c.section_path.includes('제20조'));
    expect(welfare?.entities).toEqual(expect.arrayContaining(['출산 장려금', '출산장려금']));
    for (const c of out.chunks) expect(c.entities.length).toBeLessThanOrEqual(40);
  });

  it('unions entities on the document, most widespread first', () => {
    expect(out.document.entities).toEqual(expect.arrayContaining(['출산장려금', '근로자']));
    expect(new Set(out.document.entities).size).toBe(out.document.entities.length);
    expect(out.document.entities.length).toBeLessThanOrEqual(200);
  });

  it('is deterministic', () => {
    expect(run()).toEqual(out);
  });
});

describe('enrichStage — metadata and fallbacks', () => {
  it('lets meta override everything it names', () => {
    const meta: DocumentMeta = { doc_type: 'law', jurisdiction: 'KR', lang: 'en', title: 'Labor Standards Act', valid_from: '2024-01-01', valid_to: '2024-12-31' };
    const { document, chunks } = run(meta);
    expect(document).toMatchObject({ doc_type: 'law', jurisdiction: 'KR', lang: 'en', title: 'Labor Standards Act', valid_from: '2024-01-01', valid_to: '2024-12-31' });
    for (const c of chunks) expect([c.valid_from, c.valid_to]).toEqual(['2024-01-01', '2024-12-31']);
  });

  it('keeps an explicit meta valid_to of null', () => {
    const { document } = run({ valid_to: null }, `${KO_HEAD}\n이 법은 2030년 12월 31일까지 유효하다.`);
    expect(document.valid_to).toBeNull();
    expect(document.valid_from).toBe('2025-02-23');
  });

  it('drops a text-found bound that contradicts a meta bound', () => {
    expect(run({ valid_to: '2020-01-01' }).document).toMatchObject({ valid_from: null, valid_to: '2020-01-01' });
    expect(run({ valid_from: '2031-01-01' }, `${KO_HEAD}\n이 법은 2030년 12월 31일까지 유효하다.`).document).toMatchObject({ valid_from: '2031-01-01', valid_to: null });
  });

  it('never turns the creation date or the clock into a validity date', () => {
    const { document } = run({}, 'Employee Handbook\nPublished 2024-03-01', [], { title: null, creationDate: '2024-03-01' });
    expect(document.valid_from).toBeNull();
    expect(document.valid_to).toBeNull();
    expect(document.lang).toBe('en');
    // The only entity is the kind the title shows (a handbook is a policy), never a date.
    expect(document.entities).toEqual(['policy']);
  });

  it('reads English validity lines from the first pages', () => {
    const { document } = run({}, 'Data Retention Policy\nEffective date: February 23, 2025\nValid until December 31, 2026', []);
    expect([document.valid_from, document.valid_to]).toEqual(['2025-02-23', '2026-12-31']);
    expect(document.title).toBe('Data Retention Policy');
  });

  it('prefers the PDF title, then a heading, then the file name', () => {
    expect(run({}, KO_HEAD, koChunks, { title: 'PDF Title', creationDate: null }).document.title).toBe('PDF Title');
    expect(run({}, KO_HEAD, koChunks, { title: '  ', creationDate: null }).document.title).toBe('근로기준법');
    expect(run({}, '12\n- 3 -', [], { title: null, creationDate: null }).document.title).toBe('labor standards act');
  });

  it('says und when there is no text at all', () => {
    expect(run({}, '', []).document.lang).toBe('und');
  });
});

describe('title helpers', () => {
  it('skips page numbers, brackets and list lines', () => {
    expect(headingTitle('3\n[시행 2025. 2. 23.]\n- item\nReal Title\nMore')).toBe('Real Title');
    expect(headingTitle('')).toBeNull();
  });

  it('derives a title from the source key', () => {
    expect(fileTitle('reports/2024/Annual_Report.pdf')).toBe('Annual Report');
    expect(fileTitle('a\\b\\c.PDF')).toBe('c');
  });
});
