/**
 * Language detection by script, then by stopwords for Latin script. No model: documents are
 * long, scripts are decisive for the languages we care about most (ko, ja, zh), and four
 * stopword lists tell the common Latin-script languages apart reliably on a page of text.
 */

/** How many characters of a text are looked at; a few pages decide as well as a book. */
const SAMPLE_CHARS = 20_000;

/**
 * Weight of a CJK character against a Latin letter: one Hangul syllable or Han character
 * carries about as much text as two to three Latin letters, so Korean prose with English terms
 * still counts as Korean.
 */
const WIDE_WEIGHT = 2;

const STOPWORDS: Readonly<Record<'en' | 'de' | 'fr' | 'es', ReadonlySet<string>>> = {
  en: new Set(['the', 'and', 'of', 'to', 'is', 'that', 'for', 'it', 'with', 'as', 'was', 'on', 'be', 'by', 'this', 'are', 'or', 'shall', 'from', 'which', 'an', 'not', 'have', 'has', 'will', 'any', 'may']),
  de: new Set(['der', 'die', 'und', 'das', 'ist', 'nicht', 'mit', 'den', 'von', 'zu', 'ein', 'eine', 'für', 'auf', 'dem', 'sich', 'des', 'im', 'werden', 'wird', 'oder', 'auch', 'bei', 'nach', 'sind']),
  fr: new Set(['le', 'les', 'et', 'est', 'une', 'un', 'du', 'dans', 'pour', 'pas', 'sur', 'au', 'aux', 'ce', 'qui', 'sont', 'avec', 'ou', 'leur', 'cette', 'être', 'par', 'il', 'elle']),
  es: new Set(['el', 'los', 'las', 'y', 'una', 'por', 'con', 'para', 'del', 'se', 'lo', 'como', 'su', 'sus', 'es', 'está', 'son', 'pero', 'o', 'al', 'este', 'esta', 'ser']),
};

/** Order used to break ties, and `en` wins when nothing is found (the corpus default). */
const LATIN_ORDER = ['en', 'de', 'fr', 'es'] as const;

interface ScriptCounts {
  hangul: number;
  kana: number;
  han: number;
  arabic: number;
  cyrillic: number;
  latin: number;
}

function countScripts(text: string): ScriptCounts {
  const c: ScriptCounts = { hangul: 0, kana: 0, han: 0, arabic: 0, cyrillic: 0, latin: 0 };
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if ((cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) c.hangul += 1;
    else if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f)) c.kana += 1;
    else if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff)) c.han += 1;
    else if ((cp >= 0x0600 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) c.arabic += 1;
    else if (cp >= 0x0400 && cp <= 0x04ff) c.cyrillic += 1;
    else if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7)) c.latin += 1;
  }
  return c;
}

function latinLanguage(text: string): string {
  const hits: Record<string, number> = { en: 0, de: 0, fr: 0, es: 0 };
  for (const word of text.toLowerCase().match(/[a-zà-öø-ÿ]+/g) ?? []) {
    for (const lang of LATIN_ORDER) if (STOPWORDS[lang].has(word)) hits[lang] = (hits[lang] ?? 0) + 1;
  }
  let best: string = 'en';
  for (const lang of LATIN_ORDER) if ((hits[lang] ?? 0) > (hits[best] ?? 0)) best = lang;
  return best;
}

/**
 * ISO 639-1 code of the dominant language of `text`, from its first 20,000 characters:
 * `ko` (Hangul), `ja` (kana, with or without Han), `zh` (Han without kana or Hangul), `ar`,
 * `ru` (Cyrillic), and for Latin script `en`/`de`/`fr`/`es` by stopword hits (`en` when none
 * hit). `und` when the text has no letters at all.
 */
export function detectLang(text: string): string {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const c = countScripts(sample);
  // Japanese always mixes kana with Han; Han alone is Chinese, Han inside Hangul is hanja.
  const scores: Array<[string, number]> = [
    ['ko', c.hangul * WIDE_WEIGHT],
    ['ja', c.kana > 0 ? (c.kana + c.han) * WIDE_WEIGHT : 0],
    ['zh', c.kana === 0 ? c.han * WIDE_WEIGHT : 0],
    ['ar', c.arabic],
    ['ru', c.cyrillic],
    ['latin', c.latin],
  ];
  let best: [string, number] = ['und', 0];
  for (const s of scores) if (s[1] > best[1]) best = s;
  if (best[0] === 'latin') return latinLanguage(sample);
  return best[0];
}
