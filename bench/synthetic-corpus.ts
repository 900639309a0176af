/**
 * A synthetic chunk corpus for the query benchmark: N chunks of English and Korean policy and
 * regulation prose, grouped into documents with numbered sections, spread over doc types,
 * jurisdictions, languages and validity periods, with entities. Pure and deterministic: the
 * same options give the same documents, chunks and ids on every machine (seeded mulberry32).
 *
 * Text mixes the template sentences of the test corpora (roles, approvals, deadlines, 지원금 …)
 * with sentences drawn from a larger, Zipf-weighted lexicon, so the keyword side sees frequent
 * words that match most chunks and rarer words that single a few out, as in real documents.
 */
import { chunkIdFor, sha256Hex, type DocumentRecord } from '../shared/domain/index.ts';
import type { StoredChunkWithoutVector } from '../shared/store/index.ts';
import {
  EN_KINDS, EN_SECTIONS, EN_SUBSECTIONS, EN_TOPICS, KO_ARTICLES, KO_CHAPTERS, KO_KINDS, KO_TOPICS,
  createRng, enSentence, josa, koSentence, mixSeed, shuffled, type Rng,
} from '../tests/fixtures/corpus-vocabulary.ts';

export { createRng, mixSeed, type Rng };

/** One generated document and its chunks (no vectors: the benchmark embeds them). */
export interface SyntheticDocument {
  document: DocumentRecord;
  chunks: StoredChunkWithoutVector[];
}

export interface SyntheticCorpusOptions {
  /** Chunks in the whole corpus (the last document is cut to reach exactly this many). */
  chunks: number;
  seed: number;
  /** created_at / updated_at of every row. @defaultValue 2026-01-01T00:00:00.000Z */
  now?: string;
  /** Inclusive chunk range per document. @defaultValue [4, 40] */
  chunksPerDoc?: [number, number];
}

const EN_LEXICON = (
  'employee manager request approval budget payment claim record report policy procedure contract supplier ' +
  'invoice receipt account access system data incident risk review audit training leave salary allowance ' +
  'travel expense vehicle device password network server backup retention deadline threshold limit form ' +
  'evidence notice complaint appeal grievance benefit pension insurance overtime shift schedule holiday ' +
  'absence sickness medical certificate relocation housing mileage fuel meal accommodation flight visa ' +
  'laptop phone software licence vendor tender quotation purchase order asset inventory disposal archive ' +
  'register consent privacy breach encryption firewall patch vulnerability monitoring logging identity ' +
  'badge visitor contractor subcontractor consultant auditor committee board director officer chair ' +
  'secretary treasurer member volunteer trainee apprentice graduate intern candidate applicant recipient ' +
  'beneficiary household dependant spouse child parent carer guardian student tenant landlord resident ' +
  'citizen taxpayer grant subsidy loan fee charge penalty fine refund rebate deduction exemption waiver ' +
  'variance deviation escalation investigation sanction dismissal suspension warning hearing panel ' +
  'tribunal ombudsman regulator inspector authority ministry agency department division unit branch ' +
  'region district municipality county province state territory jurisdiction statute ordinance bylaw ' +
  'clause article schedule annex appendix amendment revision version draft template checklist guidance ' +
  'standard benchmark metric indicator target objective milestone deliverable outcome impact assessment ' +
  'evaluation survey interview questionnaire sample dataset spreadsheet dashboard portal mailbox hotline ' +
  'emissions energy heating lighting recycling waste water carbon footprint sustainability biodiversity ' +
  'hazard ladder scaffold forklift chemical asbestos noise vibration ergonomics firstaid evacuation drill ' +
  'whistleblower retaliation bribery gift hospitality donation sponsorship lobbying sanctions embargo ' +
  'cryptography token certificate keystore rotation revocation session cookie header endpoint gateway'
).split(' ');
const EN_ADJECTIVES = (
  'annual monthly quarterly weekly daily interim final provisional temporary permanent statutory mandatory ' +
  'optional additional supplementary reasonable maximum minimum eligible ineligible approved rejected pending ' +
  'confidential public internal external remote regional national international digital paper electronic ' +
  'signed unsigned certified verified late early overdue outstanding partial full joint separate'
).split(' ');
const EN_PAST = (
  'approved recorded reviewed submitted verified reimbursed escalated archived retained published audited ' +
  'signed checked assessed notified refunded withheld deducted capped waived suspended renewed revoked'
).split(' ');
const KO_LEXICON = (
  '지원금 보조금 장려금 수당 급여 연금 보험료 과태료 수수료 이용료 분담금 출연금 예산 결산 회계 세출 세입 ' +
  '신청서 증빙서류 확인서 계획서 보고서 결과서 통지서 동의서 서약서 명세서 계약서 협약서 위임장 ' +
  '주민등록등본 가족관계증명서 소득금액증명원 사업자등록증 재직증명서 건강보험 고용보험 산재보험 ' +
  '출산 육아 돌봄 보육 양육 임신 산모 신생아 아동 청소년 청년 노인 장애인 저소득층 한부모 다자녀 ' +
  '주거 임대 전세 월세 주택 공공임대 창업 소상공인 전통시장 중소기업 사회적기업 협동조합 일자리 ' +
  '재난 안전 감염병 방역 예방접종 응급 대피 소방 침수 지진 폭염 한파 미세먼지 ' +
  '개인정보 정보보안 전자문서 기록물 공공데이터 민원 정보공개 감사 점검 평가 심사 위원회 자문 ' +
  '교육 훈련 연수 상담 컨설팅 홍보 행사 축제 공연 전시 도서관 체육시설 공원 주차장 ' +
  '환수 반환 취소 정지 제한 면제 감면 유예 이의신청 행정심판 처분 고시 공고 조례 규칙 훈령 지침'
).split(' ');
const KO_ORGS = ['보건복지부', '행정안전부', '고용노동부', '국토교통부', '서울특별시', '부산광역시', '경기도', '중소벤처기업부', '개인정보보호위원회'] as const;
const EN_ORGS = ['Department of Labor', 'Health and Safety Executive', 'European Commission', 'Internal Revenue Service', 'Information Commissioner', 'Treasury Board', 'Fair Work Ombudsman'] as const;
const EN_NAMED = ['GDPR', 'HIPAA', 'ISO 27001', 'SOC 2', 'PCI DSS', 'FMLA', 'OSHA', 'NIST 800-53', 'RFC 6265', 'Equality Act'] as const;
const KO_NAMED = ['개인정보 보호법', '국가재정법', '지방자치법', '보조금 관리에 관한 법률', '재난 및 안전관리 기본법', '저출산ㆍ고령사회기본법'] as const;

/** Values with their weights; documents draw their facets from these. */
const EN_DOC_TYPES: readonly [string, number][] = [['policy', 5], ['guideline', 3], ['standard', 2], ['procedure', 2], ['law', 2], ['faq', 1], ['manual', 1], ['contract', 1]];
const KO_DOC_TYPES: readonly [string, number][] = [['law', 4], ['policy', 2], ['guideline', 2], ['ordinance', 2], ['faq', 1]];
const EN_JURISDICTIONS: readonly [string, number][] = [['US', 5], ['EU', 3], ['UK', 2], ['CA', 1], ['AU', 1], ['US-CA', 1], ['US-NY', 1]];
const KO_JURISDICTIONS: readonly [string, number][] = [['KR', 5], ['KR-11', 2], ['KR-26', 1], ['KR-41', 1]];

function weighted(rng: Rng, items: readonly [string, number][]): string {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [value, w] of items) if ((r -= w) < 0) return value;
  return items[items.length - 1]?.[0] ?? '';
}

/** A Zipf(1) sampler over `words`: the first word is drawn about `rank` times as often as the `rank`-th. */
export function zipfSampler(words: readonly string[]): (rng: Rng) => string {
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < words.length; i++) cumulative.push((sum += 1 / (i + 1)));
  return (rng) => {
    const r = rng.next() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > r) hi = mid;
      else lo = mid + 1;
    }
    return words[lo] as string;
  };
}

const enWord = zipfSampler(EN_LEXICON);
const koWord = zipfSampler(KO_LEXICON);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pad = (n: number, width: number) => String(n).padStart(width, '0');

function isoDate(year: number, month: number, day: number): string {
  return `${year}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** One English sentence from the lexicon, mentioning the document's topic or an entity now and then. */
function enLexiconSentence(rng: Rng, topic: string, entities: readonly string[]): string {
  const a = enWord(rng);
  const b = enWord(rng);
  const adj = rng.pick(EN_ADJECTIVES);
  switch (rng.int(0, 5)) {
    case 0:
      return `The ${adj} ${a} ${b} is ${rng.pick(EN_PAST)} under the ${topic.toLowerCase()} rules.`;
    case 1:
      return `Every ${a} must include the ${adj} ${b} and a reference to ${rng.pick(entities)}.`;
    case 2:
      return `${/^[aeiou]/.test(a) ? 'An' : 'A'} ${a} ${b} above ${rng.int(1, 200) * 100} dollars is ${rng.pick(EN_PAST)} within ${rng.int(2, 60)} days.`;
    case 3:
      return `${cap(adj)} ${a} records and ${enWord(rng)} ${b} logs are kept for ${rng.int(1, 10)} years.`;
    case 4:
      return `Questions about the ${a} ${b} go to the ${enWord(rng)} team, which answers within ${rng.int(1, 15)} business days.`;
    default:
      return `This applies to every ${a}, ${b} and ${enWord(rng)} covered by ${rng.pick(entities)}.`;
  }
}

function koLexiconSentence(rng: Rng, topic: string, entities: readonly string[]): string {
  const a = koWord(rng);
  const b = koWord(rng);
  switch (rng.int(0, 4)) {
    case 0:
      return `${topic} 관련 ${josa(a, '은는')} ${b} 기준에 따라 ${rng.int(1, 90)}일 이내에 처리한다.`;
    case 1:
      return `${josa(`${a} ${b}`, '을를')} 신청하려는 자는 ${rng.pick(entities)}에 따른 서류를 제출하여야 한다.`;
    case 2:
      return `${josa(a, '이가')} ${rng.int(1, 30) * 10}만원을 초과하는 경우 ${josa(b, '은는')} 위원회의 심의를 거친다.`;
    case 3:
      return `${a}와 ${b}에 관한 세부 사항은 ${rng.pick(entities)}에서 정한다.`;
    default:
      return `${josa(a, '은는')} 매년 ${rng.int(1, 12)}월 말까지 ${josa(koWord(rng), '을를')} 보고하여야 한다.`;
  }
}

interface DocPlan {
  lang: 'en' | 'ko';
  title: string;
  topic: string;
  docType: string;
  jurisdiction: string;
  validFrom: string;
  validTo: string | null;
  entities: string[];
  /** Breadcrumb and normalised innermost heading of chunk `i`. */
  sectionOf(i: number): { path: string; section: string };
}

function planDocument(rng: Rng, index: number): DocPlan {
  const lang: 'en' | 'ko' = rng.next() < 0.35 ? 'ko' : 'en';
  const year = rng.int(2012, 2026);
  const month = rng.int(1, 12);
  const day = rng.int(1, 28);
  const validFrom = isoDate(year, month, day);
  // A quarter of the documents were superseded; some of those are no longer valid today.
  const validTo = rng.next() < 0.25 ? isoDate(year + rng.int(1, 6), month, day) : null;
  const code = pad(index, 5);
  if (lang === 'ko') {
    const topic = rng.pick(KO_TOPICS);
    const kind = rng.pick(KO_KINDS);
    const title = `${topic}에 관한 ${kind} 제${code}호`;
    const articles = shuffled(KO_ARTICLES, rng);
    return {
      lang, title, topic, validFrom, validTo,
      docType: weighted(rng, KO_DOC_TYPES),
      jurisdiction: weighted(rng, KO_JURISDICTIONS),
      entities: [`제${code}호`, rng.pick(KO_ORGS), rng.pick(KO_NAMED), topic.replace(/\s+/g, '')],
      sectionOf(i) {
        const article = articles[i % articles.length] as string;
        const chapter = KO_CHAPTERS[Math.floor(i / 4) % KO_CHAPTERS.length] as string;
        return { path: `${title} > 제${Math.floor(i / 4) + 1}장 ${chapter} > 제${i + 1}조(${article})`, section: article };
      },
    };
  }
  const topic = rng.pick(EN_TOPICS);
  const kind = rng.pick(EN_KINDS);
  const title = `${topic} ${kind} QB-${code}`;
  const sections = shuffled(EN_SECTIONS, rng);
  const subs = shuffled(EN_SUBSECTIONS, rng);
  return {
    lang, title, topic, validFrom, validTo,
    docType: weighted(rng, EN_DOC_TYPES),
    jurisdiction: weighted(rng, EN_JURISDICTIONS),
    entities: [`QB-${code}`, rng.pick(EN_ORGS), rng.pick(EN_NAMED), topic],
    sectionOf(i) {
      const s = Math.floor(i / 3);
      const name = sections[s % sections.length] as string;
      if (i % 3 === 0) return { path: `${title} > ${s + 1}. ${name}`, section: name.toLowerCase() };
      const sub = subs[(s + i) % subs.length] as string;
      return { path: `${title} > ${s + 1}. ${name} > ${s + 1}.${i % 3} ${sub}`, section: sub.toLowerCase() };
    },
  };
}

function body(rng: Rng, plan: DocPlan): string {
  const n = rng.int(6, 30);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const templated = rng.next() < 0.5;
    if (plan.lang === 'ko') out.push(templated ? koSentence(rng) : koLexiconSentence(rng, plan.topic, plan.entities));
    else out.push(templated ? enSentence(rng) : enLexiconSentence(rng, plan.topic, plan.entities));
  }
  return out.join(' ');
}

/**
 * Generates the corpus document by document (streamed, so 100k chunks never sit in memory
 * as one array). Chunk ids are content-addressed as in the pipeline (`chunkIdFor`).
 */
export function* syntheticCorpus(opts: SyntheticCorpusOptions): Generator<SyntheticDocument> {
  const now = opts.now ?? '2026-01-01T00:00:00.000Z';
  const [minPer, maxPer] = opts.chunksPerDoc ?? [4, 40];
  let remaining = opts.chunks;
  for (let index = 0; remaining > 0; index++) {
    const rng = createRng(mixSeed(opts.seed, index));
    const plan = planDocument(rng, index);
    const count = Math.min(remaining, rng.int(minPer, maxPer));
    remaining -= count;
    const docId = `bench-${pad(opts.seed, 4)}-${pad(index, 6)}`;
    const version = sha256Hex(`${docId}|${opts.seed}`);
    const chunks: StoredChunkWithoutVector[] = [];
    for (let i = 0; i < count; i++) {
      const { path, section } = plan.sectionOf(i);
      const text = body(rng, plan);
      const chunkEntities = plan.entities.filter(() => rng.next() < 0.5);
      chunks.push({
        chunk_id: chunkIdFor(docId, path, text),
        doc_id: docId, version, section, section_path: path, body: text,
        embedding_text: `${path}\n${text}`,
        page_start: 1 + Math.floor(i / 2), page_end: 1 + Math.floor((i + 1) / 2),
        chunk_index: i, total_chunks: count,
        token_count: Math.ceil(text.length / (plan.lang === 'ko' ? 1.5 : 4)),
        entities: chunkEntities, valid_from: plan.validFrom, valid_to: plan.validTo,
        doc_type: plan.docType, jurisdiction: plan.jurisdiction, lang: plan.lang,
        created_at: now, updated_at: now,
      });
    }
    const document: DocumentRecord = {
      doc_id: docId, version, title: plan.title, doc_type: plan.docType, jurisdiction: plan.jurisdiction, lang: plan.lang,
      valid_from: plan.validFrom, valid_to: plan.validTo, entities: plan.entities, page_count: Math.ceil(count / 2) + 1,
      provenance: { source_uri: `bench://synthetic/${docId}`, sha256: version, fetched_at: now, collector: 'quarry-bench', bytes: 0 },
    };
    yield { document, chunks };
  }
}

const EN_QUERY_TEMPLATES: readonly ((rng: Rng) => string)[] = [
  (r) => `Who is eligible under the ${r.pick(EN_TOPICS).toLowerCase()} policy?`,
  (r) => `How much can the budget holder approve for ${r.pick(EN_TOPICS).toLowerCase()} claims?`,
  (r) => `What is the deadline to submit the ${enWord(r)} ${enWord(r)} form?`,
  (r) => `${r.pick(EN_TOPICS)} ${r.pick(EN_SECTIONS).toLowerCase()} requirements`,
  (r) => `how long are ${enWord(r)} records retained under ${r.pick(EN_NAMED)}`,
  (r) => `Which ${r.pick(EN_ADJECTIVES)} ${enWord(r)} claims need a second approval?`,
  (r) => `${r.pick(EN_SUBSECTIONS)} for ${enWord(r)} ${enWord(r)} in the ${r.pick(EN_TOPICS).toLowerCase()} procedure`,
  (r) => `What did the ${r.pick(EN_TOPICS).toLowerCase()} guideline say about ${enWord(r)} as of March 2021?`,
];
const KO_QUERY_TEMPLATES: readonly ((rng: Rng) => string)[] = [
  (r) => `${r.pick(KO_TOPICS)} 지원 대상은 누구인가요?`,
  (r) => `${r.pick(KO_TOPICS)} ${r.pick(KO_ARTICLES)}에 대해 알려줘`,
  (r) => `${koWord(r)} 신청 방법과 제출 서류는?`,
  (r) => `${koWord(r)} ${koWord(r)} 지급 기준`,
  (r) => `${r.pick(KO_NAMED)}에 따른 ${koWord(r)} 환수 절차`,
];

/** A fixed, mixed English/Korean question set (about one in three Korean), deterministic in `seed`. */
export function syntheticQueries(count: number, seed: number): string[] {
  const rng = createRng(mixSeed(seed, 0x5157));
  const used = { en: 0, ko: 0 };
  return Array.from({ length: count }, (_, i) => {
    const lang = i % 3 === 2 ? 'ko' : 'en';
    const templates = lang === 'ko' ? KO_QUERY_TEMPLATES : EN_QUERY_TEMPLATES;
    return (templates[used[lang]++ % templates.length] as (rng: Rng) => string)(rng);
  });
}
