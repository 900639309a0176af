import { hasHangul, spacingVariants } from '../enrich/index.ts';
import type { FacetName } from '../store/index.ts';
import { DOC_TYPES, JURISDICTIONS, LANGUAGES, SECTION_CONCEPTS, type SectionConcept } from './facet-glossary.ts';

/** What gets embedded for one facet value, and the parts it was made of. */
export interface FacetValueText {
  facet: FacetName;
  value: string;
  /** The typed description (seed 000 §5.2): what the label means, in words a question uses. */
  description: string;
  /** Spacing, case and name variants of the value (the value itself excluded). */
  aliases: string[];
  /** The sampled sentences the text ends with. */
  sentences: string[];
  /** Description + aliases + sentences: the one text embedded for this value. */
  text: string;
}

/** Aliases kept per value: enough for every spelling, not so many they drown the description. */
const MAX_ALIASES = 16;

/** NFKC, lower case, single spaces. */
function fold(value: string): string {
  return value.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

function words(value: string): string {
  return ` ${fold(value).replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

const ENGLISH_PREPOSITION = / (?:for|of|in|on|during|to|from|with|under|after|before|by|at) /;

/**
 * The kind of section a heading names, or null. A keyword matches as a whole word (English) or
 * as a spacing-free substring (Korean, where "지원대상" and "지원 대상" are one heading). The
 * longest match wins; a match ending a non-question heading's head counts extra: the head
 * is last in Korean ("재택근무 대상" is about who is eligible, not remote work in general) and
 * last before the first preposition in English ("eligibility for remote work"), while a
 * question's topic is anywhere in it.
 */
export function sectionConcept(value: string): SectionConcept | null {
  const folded = fold(value);
  const spaced = words(value);
  const compact = folded.replace(/\s+/g, '');
  // English puts the head before a preposition ("eligibility for remote work"), Korean last.
  const head = ` ${spaced.split(ENGLISH_PREPOSITION)[0]?.trim() ?? ''} `;
  const question = /[?？]\s*$/.test(value) || /(?:나요|까요|가요|습니까)\s*[?？]?\s*$/.test(folded);
  let best: { concept: SectionConcept; score: number } | null = null;
  for (const concept of SECTION_CONCEPTS) {
    for (const keyword of concept.keywords) {
      let score = 0;
      if (hasHangul(keyword)) {
        const k = keyword.replace(/\s+/g, '');
        if (compact.includes(k)) score = k.length + (!question && compact.replace(/[^\p{L}\p{N}]+/gu, '').endsWith(k) ? 10 : 0);
      } else if (spaced.includes(` ${keyword} `)) {
        score = keyword.length + (!question && head.endsWith(` ${keyword} `) ? 10 : 0);
      }
      if (score > 0 && folded === keyword) score += 20;
      if (score > (best?.score ?? 0)) best = { concept, score };
    }
  }
  return best?.concept ?? null;
}

function quote(value: string): string {
  return `"${value.replace(/\s+/g, ' ').trim()}"`;
}

function regionName(code: string): string | null {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase());
    return name && name.toUpperCase() !== code.toUpperCase() && !/unknown/i.test(name) ? name : null;
  } catch {
    return null;
  }
}

function languageName(code: string): string | null {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code.toLowerCase());
    return name && name.toLowerCase() !== code.toLowerCase() ? name : null;
  } catch {
    return null;
  }
}

/**
 * The typed description of a facet value (seed 000 §5.2): "This is a section label meaning
 * eligibility criteria…". Known values get their meaning from the glossary in English and
 * Korean; Korean section headings get a Korean sentence first; anything else is described by
 * its own words. Deterministic: same facet and value, same text.
 */
export function describeFacetValue(facet: FacetName, value: string): string {
  const v = quote(value);
  switch (facet) {
    case 'section': {
      const concept = sectionConcept(value);
      if (hasHangul(value)) {
        // "(이)라는" reads right after any final syllable, with or without a batchim.
        return `이것은 ${v}(이)라는 절(섹션) 제목입니다. 뜻: ${concept ? concept.ko : `${v}에 관한 조항과 설명`}. This is a section label meaning ${concept ? concept.en : v}.`;
      }
      return concept
        ? `This is a section label meaning ${concept.en}: passages under a heading such as ${v}. (절 제목의 뜻: ${concept.ko})`
        : `This is a section label meaning ${v}: passages under a heading titled ${v}.`;
    }
    case 'doc_type': {
      const known = DOC_TYPES[fold(value)];
      return known
        ? `This is a document type label meaning ${known.en}. (문서 종류: ${known.ko})`
        : `This is a document type label meaning ${v} documents.`;
    }
    case 'jurisdiction': {
      const known = JURISDICTIONS[value.toUpperCase()];
      const name = known ? known.en.join(', ') : regionName(value);
      return known
        ? `This is a jurisdiction label meaning documents that apply in ${name}: its laws, public bodies and rules. (관할: ${known.ko})`
        : `This is a jurisdiction label meaning documents that apply in ${name ?? v}.`;
    }
    case 'lang': {
      const known = LANGUAGES[value.toLowerCase()];
      const name = known?.en ?? languageName(value);
      return known
        ? `This is a language label meaning documents written in ${known.en} (${known.native}). (언어: ${known.ko})`
        : `This is a language label meaning documents written in ${name ?? v}.`;
    }
  }
}

/** Words a heading keeps in lower case unless they open it ("Eligibility for Remote Work"). */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);

function titleCase(value: string): string {
  return value.replace(/(^|[\s(/-])(\p{L}[\p{L}\p{N}']*)/gu, (m, pre: string, word: string, offset: number) =>
    offset > 0 && MINOR_WORDS.has(word) ? m : `${pre}${word.charAt(0).toUpperCase()}${word.slice(1)}`,
  );
}

/**
 * Aliases of a facet value: its spacing variants ("지원 대상" ↔ "지원대상", via the same rules as
 * entity variants), its case variants ("eligibility", "Eligibility", "ELIGIBILITY" for short
 * codes) and, for known document types, jurisdictions and languages, their names ("South Korea",
 * "대한민국", "Korean", "한국어"). The value itself is left out; order is stable; at most 16.
 */
export function facetAliases(facet: FacetName, value: string): string[] {
  const out: string[] = [];
  const add = (alias: string): void => {
    const a = alias.replace(/\s+/g, ' ').trim();
    if (a !== '' && a !== value && !out.includes(a)) out.push(a);
  };
  for (const variant of spacingVariants(value)) add(variant);
  const lower = fold(value);
  add(lower);
  if (/\p{Ll}/u.test(lower)) add(titleCase(lower));
  if (lower.replace(/\s/g, '').length <= 4) add(lower.toUpperCase());
  if (facet === 'doc_type') for (const a of DOC_TYPES[lower]?.aliases ?? []) add(a);
  if (facet === 'jurisdiction') {
    const known = JURISDICTIONS[value.toUpperCase()];
    for (const a of known?.en ?? [regionName(value) ?? '']) add(a);
    for (const a of known?.ko.split(', ') ?? []) add(a);
  }
  if (facet === 'lang') {
    const known = LANGUAGES[lower];
    for (const a of known ? [known.en, known.ko, known.native] : [languageName(value) ?? '']) add(a);
  }
  return out.slice(0, MAX_ALIASES);
}

/**
 * The one text embedded for a facet value: a label line, the description, the aliases and the
 * sampled sentences, one per line. The label and description come first and are short, so the
 * meaning of the value is not drowned by what its chunks happen to talk about.
 */
export function composeFacetText(parts: { facet: FacetName; value: string; description: string; aliases: readonly string[]; sentences: readonly string[] }): string {
  const lines = [`${parts.facet}: ${parts.value}`, parts.description];
  if (parts.aliases.length) lines.push(`Also written: ${parts.aliases.join(', ')}`);
  if (parts.sentences.length) lines.push('Examples:', ...parts.sentences);
  return lines.join('\n');
}

/** Description, aliases and the composed text of one facet value with its sampled sentences. */
export function facetValueText(facet: FacetName, value: string, sentences: readonly string[]): FacetValueText {
  const description = describeFacetValue(facet, value);
  const aliases = facetAliases(facet, value);
  return { facet, value, description, aliases, sentences: [...sentences], text: composeFacetText({ facet, value, description, aliases, sentences }) };
}
