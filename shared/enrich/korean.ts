/**
 * Korean noun phrases without a morphological analyser: strip the particle (조사) a word ends
 * with, drop words that end like predicates, and keep runs of up to three nouns as compounds.
 * Imperfect by design — entities feed filters and query expansion, where a missing entity costs
 * little and a noisy one is capped away — but deterministic and fast.
 */

/** Particles, longest first so "에서는" wins over "는". */
const PARTICLES = [
  '에서부터', '으로부터', '에게서는',
  '에게서', '으로써', '으로서', '에서는', '에서도', '에게는', '에게도', '으로는', '으로도', '이라고', '까지는', '부터는', '로부터', '에서의', '으로의',
  '에서', '에게', '으로', '부터', '까지', '처럼', '보다', '마다', '이나', '이며', '이고', '라도', '한테', '께서', '로서', '로써', '와의', '과의', '에의', '에는', '에도', '이란', '만큼', '조차', '마저', '밖에', '로는', '로도', '와는', '과는', '이라',
  '은', '는', '이', '가', '을', '를', '의', '에', '로', '와', '과', '도', '만', '께', '란',
];

/** One-syllable particles that (almost) no noun ends in. */
const STRONG_PARTICLES = new Set(['은', '는', '을', '를', '에', '께', '란']);

/**
 * Two-syllable nouns that end in a particle-like syllable. A word ending in one of these is a
 * noun as it stands: "출산휴가" is not "출산휴" + 가, "재평가" is not "재평" + 가.
 */
const NOUN_ENDINGS = new Set([
  '평가', '국가', '휴가', '추가', '증가', '원가', '단가', '물가', '주가', '대가', '시가', '정가', '지가', '작가', '화가',
  '차이', '사이', '나이', '종이', '높이', '길이', '넓이', '깊이', '아이', '놀이',
  '정의', '합의', '동의', '회의', '협의', '심의', '결의', '논의', '주의', '의의', '이의', '편의', '유의', '창의', '건의', '문의', '질의', '강의', '모의',
  '제도', '정도', '한도', '용도', '강도', '속도', '태도', '온도', '지도', '시도', '의도', '빈도', '각도', '밀도', '농도', '고도', '양도', '인도',
  '근로', '경로', '통로', '진로', '항로', '선로', '회로', '과로',
  '결과', '효과', '초과', '성과', '부과', '경과', '통과', '학과', '교과', '사과',
  '불만', '미만', '비만', '마을', '가을', '포함', '개요', '수요', '주요', '제한', '기한', '권한', '역할', '분할', '관할',
]);

/** Endings of verbs, adjectives, adverbial and connective forms: such words are not nouns. */
const PREDICATE_ENDING =
  /(?:하여야|되어야|하여|되어|하며|되며|하고|되고|하면|되면|하는|되는|있는|없는|하지|되지|해야|하게|되게|하던|되던|했던|으며|으면|는데|지만|거나|므로|도록|니다|니까|어서|아서|여서|려고|려는|라는|다는|다고|라고|있고|없고|있어|없어|였다|었다|았다|나요|까요|세요|가요|나면|시면|하실|되실|으실|어요|아요|해요|지요|습니까|으니|하니|되니|한|된|할|될|함|됨|다|히|요|죠|이다|이며|하|되|없|있)$/;

/** Frequent words that are nouns or determiners but say nothing about a passage. */
const STOPWORDS = new Set([
  '및', '또는', '그리고', '그러나', '다만', '또한', '이', '그', '저', '각', '모든', '해당', '다음', '같은', '경우', '때', '것', '수', '등', '바', '중', '내', '외',
  '이상', '이하', '이내', '미만', '초과', '관련', '관하여', '대하여', '따라', '따른', '의하여', '위하여', '통하여', '인하여', '이러한', '그러한', '어떠한', '아니한',
  '없이', '있음', '없음', '위한', '대한', '관한', '의한', '위해', '대해', '관해', '통해', '기타', '그밖', '동안', '전', '후', '이후', '이전', '당해', '본', '현재',
  '각호', '각목', '이번', '우리', '여기', '거기', '어느', '무엇', '누구', '때문', '정함', '필요', '가능', '사항', '내용', '해당자',
  // Adverbs and determiners that look like nouns once a "particle" is gone.
  '가장', '자주', '매우', '아주', '이미', '아직', '바로', '다시', '모두', '함께', '각각', '언제', '어디', '어떻게', '얼마', '반드시', '다른', '일부', '여러', '전부', '각종',
]);

/** One-syllable bound nouns (것, 수, 때 …): "것이", "수도" are a bound noun and a particle. */
const BOUND_NOUNS = new Set(['것', '수', '때', '곳', '데', '바', '분', '줄', '뿐', '등', '중']);

/** Head nouns a spaceless compound may end in; used to offer the spaced variant (see {@link spacingVariants}). */
const HEAD_NOUNS = [
  '장려금', '지원금', '보조금', '지급금', '보상금', '정착금', '축하금', '격려금', '위로금', '배상금', '보험료', '보험금', '수수료', '과태료', '증명서', '확인서', '신청서', '계약서',
  '대상자', '사업장', '위원회', '서비스', '근로자', '사용자',
  '벌금', '수당', '급여', '임금', '보험', '연금', '휴가', '휴직', '기간', '제도', '신청', '대상', '기준', '사업', '계약', '센터', '기관', '시설', '지원', '혜택', '요건', '절차', '기한', '한도', '비용', '시간',
].sort((a, b) => b.length - a.length);

const HANGUL_WORD = /^[\uAC00-\uD7A3]+$/;

/** True when the text contains a Hangul syllable. */
export function hasHangul(text: string): boolean {
  return /[\uAC00-\uD7A3]/.test(text);
}

/**
 * Removes one trailing particle from a Hangul word when what remains is at least two syllables
 * and the word does not end in a noun that merely looks like it ends in a particle.
 */
export function stripParticle(word: string): { stem: string; particle: string } {
  if (NOUN_ENDINGS.has(word.slice(-2))) return { stem: word, particle: '' };
  // The copula "인" ("근로자인 경우"): only after three syllables, since "대리인", "법인" and
  // "외국인" end in a 인 that belongs to the noun.
  if (word.endsWith('인') && word.length >= 4) return { stem: word.slice(0, -1), particle: '인' };
  for (const p of PARTICLES) {
    // Unambiguous particles may leave a one-syllable stem ("뜻은", "법에서"), which is then
    // simply too short to be an entity; ambiguous ones (이 가 의 로 도 …) need two syllables
    // left, or "국가" and "정의" would lose their last syllable.
    const minStem = p.length >= 2 || STRONG_PARTICLES.has(p) ? 1 : 2;
    if (word.length - p.length >= minStem && word.endsWith(p)) {
      const stem = word.slice(0, -p.length);
      return { stem, particle: p };
    }
  }
  return { stem: word, particle: '' };
}

/** Whether a particle-free Hangul word can be a (content) noun. */
export function isNounLike(stem: string): boolean {
  if (!HANGUL_WORD.test(stem) || stem.length < 2 || STOPWORDS.has(stem)) return false;
  if (NOUN_ENDINGS.has(stem.slice(-2))) return true;
  return !PREDICATE_ENDING.test(stem);
}

interface Word {
  stem: string;
  noun: boolean;
  /** A particle, punctuation or a non-noun follows: the noun phrase cannot go on past this word. */
  closes: boolean;
}

const TOKEN = /[\uAC00-\uD7A3A-Za-z0-9]+/g;

/** Every one-syllable particle. */
const STRONG_OR_WEAK = new Set(PARTICLES.filter((p) => p.length === 1));

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let prevEnd = -1;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    const last = words[words.length - 1];
    // Anything but plain spacing between two words (quotes, commas, brackets) ends a phrase.
    if (last && prevEnd >= 0 && /\S/.test(text.slice(prevEnd, m.index))) last.closes = true;
    prevEnd = m.index + m[0].length;
    const core = m[0];
    const bound = core.length === 2 && BOUND_NOUNS.has(core.charAt(0)) && STRONG_OR_WEAK.has(core.charAt(1));
    if (!HANGUL_WORD.test(core) || bound) {
      words.push({ stem: core, noun: false, closes: true });
      continue;
    }
    const { stem, particle } = stripParticle(core);
    // "제공하는" loses "는" as if it were a particle; the whole word still reads as a verb.
    const noun = isNounLike(stem) && (particle === '' || NOUN_ENDINGS.has(core.slice(-2)) || !PREDICATE_ENDING.test(core));
    words.push({ stem, noun, closes: particle !== '' || !noun });
  }
  return words;
}

/**
 * Korean noun phrases of `text`, in order of appearance (with repeats): every noun-like word
 * (particle stripped, ≥ 2 syllables) and every run of two or three adjacent nouns with no
 * particle or punctuation between them ("출산 장려금을" → "출산", "장려금", "출산 장려금").
 * Phrases keep single spaces between their words; see {@link spacingVariants} for the rest.
 */
export function koreanNounPhrases(text: string): string[] {
  const out: string[] = [];
  const words = wordsOf(text);
  let run: string[] = [];
  const flush = (): void => {
    for (let size = 2; size <= 3; size += 1) {
      for (let i = 0; i + size <= run.length; i += 1) out.push(run.slice(i, i + size).join(' '));
    }
    run = [];
  };
  for (const w of words) {
    if (!w.noun) {
      flush();
      continue;
    }
    out.push(w.stem);
    run.push(w.stem);
    if (w.closes) flush();
  }
  flush();
  return out;
}

/**
 * Spacing and alias variants of a term, the term's canonical form first, no duplicates.
 *
 * - Hangul with spaces: also the joined form ("출산 장려금" → "출산장려금"). The joined form is
 *   the one every spelling shares, so the query side matches on it.
 * - Spaceless Hangul compound of four or more syllables ending in a known head noun (장려금,
 *   수당, 급여, 휴가, …): also the spaced split ("출산장려금" → "출산 장려금"). Arbitrary
 *   splits are not generated: without a dictionary most of them ("출산장 려금") are noise.
 * - Korean references: "제2조제1항" ↔ "제2조 제1항".
 * - Latin: a short prefix and a number apart and together ("rfc 8446" ↔ "rfc8446", "§ 3" ↔ "§3"),
 *   hyphens dropped or spaced ("e-mail" → "email", "e mail").
 *
 * @param term - any spelling; it is canonicalised first (see {@link canonicalTerm}).
 */
export function spacingVariants(term: string): string[] {
  const t = canonicalTerm(term);
  if (t === '') return [];
  const out = [t];
  const add = (v: string): void => {
    const c = v.replace(/\s+/g, ' ').trim();
    if (c !== '' && !out.includes(c)) out.push(c);
  };
  if (hasHangul(t)) {
    if (t.includes(' ')) add(t.replace(/ /g, ''));
    else if (/^제\d/.test(t)) add(t.replace(/([조항호목])(?=제\d)/g, '$1 '));
    else if (t.length >= 4 && HANGUL_WORD.test(t)) {
      const head = HEAD_NOUNS.find((h) => t.endsWith(h) && t.length - h.length >= 2);
      if (head) add(`${t.slice(0, -head.length)} ${head}`);
    }
    return out;
  }
  // Short prefixes only (rfc, iso, §): "article5" or "section4.1" are spellings nobody uses.
  // A number of three or more digits, or §: "md5" or "mp3" are not written "md 5".
  const spaced = /^([a-z]{1,4} (?=\d{3})|§ ?)(\d[\d./-]*)$/.exec(t);
  const joined = /^([a-z]{1,4}(?=\d{3})|§)(\d[\d./-]*)$/.exec(t);
  if (spaced && spaced[1]?.endsWith(' ')) add(`${spaced[1].trimEnd()}${spaced[2]}`);
  else if (joined) add(`${joined[1]} ${joined[2]}`);
  if (/[a-z0-9]-[a-z0-9]/.test(t)) {
    add(t.replace(/-/g, ''));
    add(t.replace(/-/g, ' '));
  }
  return out;
}

/**
 * The one canonical spelling of an entity: NFKC (full-width Latin and digits become ASCII),
 * whitespace folded to single spaces, surrounding quotes/brackets/punctuation removed, and
 * lower-cased (Latin, Greek, Cyrillic; Hangul and Han have no case). Stored and queried in this
 * form only, so "TLS", "tls" and "ＴＬＳ" are one entity and no case variants are needed.
 */
export function canonicalTerm(term: string): string {
  let t = term
    // Korean interpuncts (ㆍ U+318D, ᆞ U+119E, ・, ･) all become the middle dot, before NFKC
    // turns ㆍ into a conjoining jamo.
    .replace(/[\u318D\u119E\u30FB\uFF65]/g, '·')
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'“”‘’「」『』[\]{}<>,.;:!?·]+|[\s"'“”‘’「」『』[\]{}<>,.;:!?·]+$/g, '')
    .toLowerCase();
  // Parentheses are kept when they pair up inside the term ("article 5(1)").
  if (t.startsWith('(') && !t.includes(')')) t = t.slice(1).trim();
  if (t.endsWith(')') && !t.includes('(')) t = t.slice(0, -1).trim();
  if (t.startsWith('(') && t.endsWith(')') && t.indexOf(')') === t.length - 1) t = t.slice(1, -1).trim();
  return t;
}
