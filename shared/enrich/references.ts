/**
 * Legal and standards references: Korean article references (제2조제1항), Korean law names
 * (근로기준법, 「…에 관한 법률」), and English references (Article 5, Section 4.1.2, § 3,
 * RFC 8446, ISO 27001). People search by these exact handles, so they rank first among entities.
 */
import { hasHangul, stripParticle } from './korean.ts';

/** A found reference or name, with where it starts (for stable ordering). */
export interface FoundTerm {
  term: string;
  index: number;
  kind: 'ref' | 'law' | 'defined';
}

const KO_ARTICLE = /제\s?(\d+)\s?조(?:\s?의\s?(\d+))?(?:\s?제\s?(\d+)\s?항)?(?:\s?제\s?(\d+)\s?호)?/g;

/**
 * Law-name suffixes for a bare word. 령 and 규칙 only after a law name (근로기준법 시행령):
 * bare 대통령, 명령, 법령, 취업규칙 are not names.
 */
const LAW_SUFFIX = /(?:법률|법|조례)$/;

/** Words ending in 법 that are not laws (방법 "method", 불법 "illegal", …), by their last two syllables. */
const NOT_LAW = new Set(['방법', '불법', '위법', '편법', '수법', '기법', '용법', '문법', '어법', '요법', '비법', '합법', '적법', '탈법', '사법', '입법', '해법', '화법', '작법', '타법', '세법', '공법']);

/** Two-syllable codes that are laws by themselves. */
const SHORT_LAWS = new Set(['헌법', '민법', '형법', '상법']);

/** Korean article references, canonical and spaceless: "제2조", "제2조의2", "제2조제1항제3호". */
function koreanArticles(text: string, out: FoundTerm[]): void {
  KO_ARTICLE.lastIndex = 0;
  for (let m = KO_ARTICLE.exec(text); m !== null; m = KO_ARTICLE.exec(text)) {
    const article = `제${m[1]}조${m[2] ? `의${m[2]}` : ''}`;
    const full = `${article}${m[3] ? `제${m[3]}항` : ''}${m[4] ? `제${m[4]}호` : ''}`;
    out.push({ term: full, index: m.index, kind: 'ref' });
    // "제2조제1항" is also about 제2조: a filter on the article must find it.
    if (full !== article) out.push({ term: article, index: m.index, kind: 'ref' });
  }
}

function isLawWord(stem: string): boolean {
  if (SHORT_LAWS.has(stem)) return true;
  if (stem.length < 3 || !LAW_SUFFIX.test(stem)) return false;
  return !NOT_LAW.has(stem.slice(-2)) && !NOT_LAW.has(stem.slice(-3));
}

/**
 * Korean law names: a word ending in 법/법률/조례 (근로기준법, 고용보험법), optionally
 * followed by 시행령 or 시행규칙 ("근로기준법 시행령"), and anything in 「」/『』 that ends like
 * a law. A name directly followed by an article also yields "근로기준법 제50조".
 */
function koreanLaws(text: string, out: FoundTerm[]): void {
  const bracketed = /[「『]([^」』\n]{2,80})[」』]/g;
  for (let m = bracketed.exec(text); m !== null; m = bracketed.exec(text)) {
    const inner = (m[1] ?? '').trim();
    if (/(?:법|법률|령|규칙|조례|규정)$/.test(inner)) out.push({ term: inner, index: m.index, kind: 'law' });
  }
  const word = /[\uAC00-\uD7A3]+/g;
  for (let m = word.exec(text); m !== null; m = word.exec(text)) {
    const { stem, particle } = stripParticle(m[0]);
    if (!isLawWord(stem)) continue;
    let name = stem;
    const after = text.slice(m.index + m[0].length);
    const decree = particle === '' ? /^\s?(시행령|시행규칙)/.exec(after) : null;
    if (decree) name = `${stem} ${decree[1]}`;
    out.push({ term: name, index: m.index, kind: 'law' });
    const rest = decree ? after.slice(decree[0].length) : after;
    const article = particle === '' ? /^\s?제\s?(\d+)\s?조(?:\s?의\s?(\d+))?/.exec(rest) : null;
    if (article) out.push({ term: `${name} 제${article[1]}조${article[2] ? `의${article[2]}` : ''}`, index: m.index, kind: 'ref' });
  }
}

const EN_REFS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [/\bArticles?\s+(\d+[a-z]?)((?:\(\d+\))*)/gi, (m) => `article ${m[1]}${m[2] ?? ''}`],
  [/\b(?:Section|Sec\.)\s+(\d+(?:\.\d+)*[a-z]?)/gi, (m) => `section ${m[1]}`],
  [/§\s*(\d+(?:\.\d+)*[a-z]?)/g, (m) => `§ ${m[1]}`],
  [/\bRFC\s?(\d{3,5})\b/gi, (m) => `rfc ${m[1]}`],
  [/\bISO(?:\/IEC)?\s?(\d{3,5})(?:-\d+)?\b/g, (m) => `iso ${m[1]}`],
  [/\bChapter\s+(\d+|[IVXLC]+)\b/g, (m) => `chapter ${(m[1] ?? '').toLowerCase()}`],
];

/** English references: "Article 5(1)", "Section 4.1.2", "§ 3", "RFC 8446", "ISO 27001". */
function englishRefs(text: string, out: FoundTerm[]): void {
  for (const [re, canonical] of EN_REFS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      out.push({ term: canonical(m), index: m.index, kind: 'ref' });
      // "Article 5(1)" is also about Article 5.
      const base = /^(article \d+[a-z]?)\(/.exec(canonical(m));
      if (base?.[1]) out.push({ term: base[1], index: m.index, kind: 'ref' });
    }
  }
}

/**
 * Defined and quoted terms: “Employer” means…, "Worker", (the "Company"), 「근로자」,
 * 이하 "사용자"라 한다, ‘사업주’. One to five words and at most 40 characters, so quoted
 * sentences are not taken for terms. A leading "the" is dropped.
 */
function definedTerms(text: string, out: FoundTerm[]): void {
  const quoted = /"([^"\n]{1,60})"|“([^”\n]{1,60})”|‘([^’\n]{1,60})’|「([^」\n]{1,60})」|『([^』\n]{1,60})』/g;
  for (let m = quoted.exec(text); m !== null; m = quoted.exec(text)) {
    const raw = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim().replace(/^the\s+/i, '');
    if (raw === '' || raw.length > 40 || raw.split(/\s+/).length > 5) continue;
    if (/[.!?。]$/.test(raw) || !/[\p{L}]/u.test(raw)) continue;
    out.push({ term: raw, index: m.index, kind: 'defined' });
  }
}

/** All references, law names and defined terms of `text`, in order of appearance (with repeats). */
export function findReferences(text: string): FoundTerm[] {
  const out: FoundTerm[] = [];
  if (hasHangul(text)) {
    koreanArticles(text, out);
    koreanLaws(text, out);
  }
  englishRefs(text, out);
  definedTerms(text, out);
  return out.sort((a, b) => a.index - b.index);
}
