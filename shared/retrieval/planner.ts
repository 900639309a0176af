/**
 * The rules planner (seed 000 §7 `planner`): intent by cue words, the hybrid tilt (alpha) by the
 * shape of the question, and first facet hypotheses. No model: the same question always gets the
 * same plan, and every decision names its reason for the trace.
 */
import { findReferences } from '../enrich/index.ts';
import { analyseQuery } from './lexical-match.ts';
import type { FacetWeights } from './priors.ts';

/** What the question asks for. */
export const INTENTS = ['definition', 'eligibility', 'amount', 'procedure', 'deadline', 'comparison', 'lookup', 'general'] as const;
export type Intent = (typeof INTENTS)[number];

/** Why alpha was chosen. */
export type AlphaReason = 'quoted' | 'law-reference' | 'identifier' | 'short-exact' | 'natural-language' | 'default';

/** The planner's output. */
export interface QueryPlan {
  intent: Intent;
  /** Cue words that decided the intent (empty for lookup/general). */
  intentCues: string[];
  /** 0 = keyword only, 1 = vector only (relativeScoreFusion weight of the vector side). */
  alpha: number;
  alphaReason: AlphaReason;
  /** Content words the question has (stopwords and particles dropped). */
  contentWords: number;
  /** First guesses of facet weights, same shape as facet-vector weights (merge by max). */
  facetHypotheses: Record<string, Record<string, number>>;
}

/** What the planner needs of the listener's output. */
export interface PlannerInput {
  stripped: string;
  lang: string;
  entities: readonly string[];
}

/** Alpha levels of {@link planQuery}. */
export interface PlannerOptions {
  /**
   * Alpha for entity-heavy, short exact, quoted and law-reference questions (keyword-leaning).
   * @defaultValue 0.25
   */
  lowAlpha?: number;
  /**
   * Alpha for natural-language questions (vector-leaning).
   * @defaultValue 0.6
   */
  highAlpha?: number;
  /**
   * Alpha otherwise (seed 000 §7 `default_alpha`).
   * @defaultValue 0.5
   */
  defaultAlpha?: number;
}

interface Cue {
  /** English: a phrase matched on word boundaries; Korean: a substring. */
  text: string;
  weight: number;
}

const strong = (...xs: string[]): Cue[] => xs.map((text) => ({ text, weight: 1 }));
const weak = (...xs: string[]): Cue[] => xs.map((text) => ({ text, weight: 0.5 }));

/** Cue words per intent. Weak cues are the ambiguous ones ("apply", "what is", "기간"). */
const CUES: Readonly<Record<Exclude<Intent, 'lookup' | 'general'>, readonly Cue[]>> = {
  comparison: [
    ...strong('compare', 'compared', 'comparison', 'difference', 'differences', 'differ', 'vs', 'versus', 'changed', 'what changed', '차이', '비교', '달라', '다른 점', '바뀐', '변경', '개정 전', '전후'),
    ...weak('change', 'changes', 'between', 'previous', 'old', '개정'),
  ],
  deadline: [
    ...strong('deadline', 'by when', 'how long', 'no later than', 'due date', 'expire', 'expires', 'expiry', 'notice period', 'days before', 'within how', '기한', '언제까지', '마감', '만료', '유효기간', '며칠 전', '이내'),
    ...weak('when', 'within', 'period', 'duration', 'days', 'weeks', '언제', '까지', '기간', '며칠'),
  ],
  amount: [
    ...strong('how much', 'amount', 'rate', 'salary', 'compensation', 'cost', 'fee', 'fees', 'percent', 'percentage', 'dollars', '얼마', '금액', '액수', '지급액', '만원', '비율', '상한액', '한도액'),
    ...weak('pay', 'paid', 'how many', 'maximum', 'minimum', 'limit', '한도', '상한', '수당', '몇'),
  ],
  eligibility: [
    ...strong('eligible', 'eligibility', 'qualify', 'qualifies', 'qualified', 'who can', 'who may', 'who is entitled', 'entitled', 'am i', 'criteria', 'who is covered', 'requirements', '대상', '자격', '요건', '받을 수 있', '해당되', '누가', '누구'),
    ...weak('covered', 'scope', 'apply to me', 'can i', '해당', '적용'),
  ],
  procedure: [
    ...strong('how do i', 'how to', 'how can i', 'how should', 'steps', 'step', 'process', 'procedure', 'submit', 'application', 'form', 'where do i', 'register', '방법', '절차', '어떻게', '제출', '서류', '접수', '등록', '신청서'),
    ...weak('apply', 'request', '신청'),
  ],
  definition: [
    ...strong('define', 'definition', 'defined', 'meaning', 'mean', 'means', 'refers to', 'stand for', 'stands for', '뜻', '정의', '의미', '개념', '이란', '란 무엇', '무엇인가', '뭔가요', '뭐예요'),
    ...weak('what is', 'what are', "what's", '무엇'),
  ],
};

/** Tie order: the more specific intent first (a comparison of amounts is a comparison). */
const PRIORITY: readonly Intent[] = ['comparison', 'deadline', 'amount', 'eligibility', 'procedure', 'definition'];

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whole-word patterns of the Latin cues, compiled once (the cue lists are constants). */
const cuePatterns = new Map<string, RegExp>();

function hasCue(lower: string, cue: string): boolean {
  if (/[\uAC00-\uD7A3]/.test(cue)) return lower.includes(cue);
  let pattern = cuePatterns.get(cue);
  if (!pattern) {
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(cue).replace(/ /g, '\\s+')}(?![\\p{L}\\p{N}])`, 'u');
    cuePatterns.set(cue, pattern);
  }
  return pattern.test(lower);
}

/** The intent with the highest cue weight (ties by {@link PRIORITY}), or null without cues. */
export function detectIntent(text: string): { intent: Intent; cues: string[] } | null {
  const lower = text.normalize('NFKC').toLowerCase();
  let best: { intent: Intent; score: number; cues: string[] } | null = null;
  for (const intent of PRIORITY) {
    const cues = (CUES[intent as keyof typeof CUES] ?? []).filter((c) => hasCue(lower, c.text));
    const score = cues.reduce((s, c) => s + c.weight, 0);
    if (score > 0 && (!best || score > best.score)) best = { intent, score, cues: cues.map((c) => c.text) };
  }
  return best ? { intent: best.intent, cues: best.cues } : null;
}

const QUOTED = /"[^"\n]{2,}"|“[^”\n]{2,}”|「[^」\n]{2,}」|『[^』\n]{2,}』/;
const EN_REFERENCE = /\b(?:article|art\.|section|sec\.|chapter|clause|paragraph)\s+\d|§\s*\d|\brfc\s?\d{3,5}\b|\biso(?:\/iec)?\s?\d{3,5}\b/i;
/** Codes and acronyms: HR-214, A12, TLS, GDPR. */
const IDENTIFIER = /\b(?:[A-Z]{2,}[-\d]*\d*|[A-Za-z]+-?\d+[A-Za-z\d-]*)\b/;
const KO_LAW_REFERENCE = /제\s?\d+\s?조/;
const EN_QUESTION = /^(?:what|how|who|whom|whose|when|where|why|which|can|could|do|does|did|is|are|was|were|should|may|must|will|would|am)\b/i;
const KO_QUESTION = /(?:나요|까요|습니까|니까|가요|는지|은지|인지|뭐야|뭔가요|어때|되나|하나|인가|일까|있나|없나|죠|예요|에요)\s*\??$|어떻게|무엇|언제|누가|누구|얼마|어디|왜/;

/** True for references to laws, articles and standards: 제5조, 근로기준법, Article 5, § 3, RFC 8446. */
export function hasLawReference(text: string): boolean {
  if (EN_REFERENCE.test(text)) return true;
  return findReferences(text).some((r) => (r.kind === 'ref' || r.kind === 'law') && /[\uAC00-\uD7A3]/.test(r.term));
}

function isQuestion(text: string): boolean {
  const t = text.trim();
  return t.endsWith('?') || EN_QUESTION.test(t) || KO_QUESTION.test(t);
}

/** The alpha rule that applies, first match wins (see {@link planQuery}). */
export function chooseAlpha(input: PlannerInput, contentWords: number, options: PlannerOptions = {}): { alpha: number; reason: AlphaReason } {
  const low = options.lowAlpha ?? 0.25;
  const high = options.highAlpha ?? 0.6;
  const base = options.defaultAlpha ?? 0.5;
  const text = input.stripped;
  if (QUOTED.test(text)) return { alpha: low, reason: 'quoted' };
  if (hasLawReference(text)) return { alpha: low, reason: 'law-reference' };
  const question = isQuestion(text);
  if (IDENTIFIER.test(text) && contentWords <= 4) return { alpha: low, reason: 'identifier' };
  if (!question && contentWords > 0 && contentWords <= 3) return { alpha: low, reason: 'short-exact' };
  if (question || contentWords >= 6) return { alpha: high, reason: 'natural-language' };
  return { alpha: base, reason: 'default' };
}

const DOC_TYPE_CUES: ReadonlyArray<[string, readonly string[]]> = [
  ['law', ['law', 'laws', 'act', 'statute', 'statutory', 'regulation', 'decree', '법률', '법령', '시행령', '시행규칙', '조례']],
  ['policy', ['policy', 'policies', 'handbook', '정책', '사규', '취업규칙']],
  ['guideline', ['guideline', 'guidelines', 'guidance', 'guide', '지침', '가이드라인', '안내서']],
  ['faq', ['faq', 'faqs', 'frequently asked', '자주 묻는', '질문과 답변']],
  ['standard', ['standard', 'protocol', 'specification', 'rfc', 'iso', '표준', '규격']],
];

const JURISDICTION_CUES: ReadonlyArray<[string, RegExp]> = [
  ['KR', /\bkorea(?:n)?\b|한국|대한민국|국내/i],
  ['EU', /\b(?:EU|E\.U\.|european union|europe|gdpr)\b/i],
  ['US', /\b(?:US|U\.S\.|USA|united states|federal|america)\b/],
];

/**
 * First facet hypotheses: a doc_type named in the question (0.8) or implied by a law reference
 * ("제5조", "근로기준법", "Article 5", "§ 3": law 0.6; RFC and ISO numbers are standards, named); a jurisdiction named (0.6) or implied by Korean (KR 0.3);
 * the question's language (0.5). Weights are in the facet-vector scale and merge with it by max.
 */
export function facetHypotheses(input: PlannerInput): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const put = (facet: string, value: string, w: number): void => {
    const table = (out[facet] ??= {});
    table[value] = Math.max(table[value] ?? 0, w);
  };
  const lower = input.stripped.normalize('NFKC').toLowerCase();
  for (const [docType, cues] of DOC_TYPE_CUES) if (cues.some((c) => hasCue(lower, c))) put('doc_type', docType, 0.8);
  // Standards (RFC, ISO) and numbered sections are referenced the same way but are not laws.
  if (KO_LAW_REFERENCE.test(input.stripped) || findReferences(input.stripped).some((r) => r.kind === 'law') || /\barticle\s+\d|§\s*\d/i.test(input.stripped)) {
    put('doc_type', 'law', 0.6);
  }
  for (const [code, re] of JURISDICTION_CUES) if (re.test(input.stripped)) put('jurisdiction', code, 0.6);
  if (input.lang === 'ko') put('jurisdiction', 'KR', 0.3);
  if (input.lang !== 'und' && input.lang !== '') put('lang', input.lang, 0.5);
  return out;
}

/**
 * Plans a question:
 * - intent: the intent whose cue words weigh most (strong cue 1, weak 0.5; ties by specificity:
 *   comparison, deadline, amount, eligibility, procedure, definition); without cues `lookup`
 *   for law references, identifiers and short non-questions, else `general`;
 * - alpha, first rule that applies: quoted phrase, law reference, identifier in a ≤ 4-word
 *   question, short non-question (≤ 3 content words) → `lowAlpha`; a question or ≥ 6 content
 *   words → `highAlpha`; else `defaultAlpha`;
 * - facet hypotheses: see {@link facetHypotheses}.
 */
export function planQuery(input: PlannerInput, options: PlannerOptions = {}): QueryPlan {
  const contentWords = analyseQuery(input.stripped).words.length;
  const { alpha, reason } = chooseAlpha(input, contentWords, options);
  const found = detectIntent(input.stripped);
  let intent: Intent = found?.intent ?? 'general';
  if (!found && (reason === 'law-reference' || reason === 'identifier' || reason === 'short-exact' || reason === 'quoted')) intent = 'lookup';
  return { intent, intentCues: found?.cues ?? [], alpha, alphaReason: reason, contentWords, facetHypotheses: facetHypotheses(input) };
}

/** Merges facet weight tables by taking the larger weight per facet value. */
export function mergeFacetWeights(...tables: FacetWeights[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const t of tables) {
    for (const [facet, values] of Object.entries(t)) {
      const table = (out[facet] ??= {});
      for (const [value, w] of Object.entries(values)) table[value] = Math.max(table[value] ?? 0, w);
    }
  }
  return out;
}
