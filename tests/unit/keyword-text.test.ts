import { describe, expect, it } from 'vitest';
import { HEADING_REPEATS, chunkKeywordText, keywordQueryText, keywordText, spellOutLoneGreek } from '../../shared/store/keyword-text.ts';
import { americanSpelling, americanSpellingOfText, SPELLING_CACHE_MAX_LENGTH, SPELLING_CACHE_WORDS } from '../../shared/store/spelling.ts';

const terms = (text: string) => new Set(keywordText(text).split(' '));

describe('keywordText: one name, several spellings', () => {
  it('a word of letters and digits adds its runs; a hyphenated name with a digit adds its parts joined', () => {
    expect(keywordText('GATA3')).toBe('gata3 gata 3');
    expect(keywordText('GATA-3')).toBe('gata 3 gata3');
    expect(terms('GATA-3')).toEqual(terms('GATA3'));
    expect(keywordText('COVID-19 and 10-K')).toBe('covid 19 covid19 and 10 k 10k');
  });

  it('plain hyphenated words, dashes and ranges are not joined', () => {
    expect(keywordText('Cookie-Header')).toBe('cookie header');
    expect(keywordText('10–20 20-40 x--y a- b')).toBe('10 20 20 40 x y a b');
  });

  it('spells out a Greek letter standing alone in Latin text, not a Greek word', () => {
    expect(keywordText('TNF-α and β-cells, IFNγ')).toBe(keywordText('TNF-alpha and beta-cells, IFNgamma'));
    expect(spellOutLoneGreek('λόγος α')).toBe('λόγος alpha');
  });

  it('leaves Korean as before: spacing-independent bigrams, article numbers apart', () => {
    expect(keywordText('출산 장려금')).toBe('출산 산장 장려 려금');
    expect(keywordText('제3조(지원 대상)')).toBe('제 3 조 지원 원대 대상');
  });
});

describe('British and American spellings', () => {
  it('writes British spellings the American way', () => {
    const cases: [string, string][] = [
      ['tumours', 'tumors'], ['behavioural', 'behavioral'], ['colour', 'color'], ['favourite', 'favorite'],
      ['ischaemia', 'ischemia'], ['hypoglycaemic', 'hypoglycemic'], ['haemoglobin', 'hemoglobin'], ['paediatric', 'pediatric'],
      ['oestrogen', 'estrogen'], ['oesophageal', 'esophageal'], ['foetal', 'fetal'], ['diarrhoea', 'diarrhea'], ['aetiology', 'etiology'],
      ['anaesthesia', 'anesthesia'], ['sulphate', 'sulfate'], ['centre', 'center'], ['centred', 'centered'], ['fibres', 'fibers'], ['analogue', 'analog'],
      ['randomised', 'randomized'], ['characterisation', 'characterization'], ['organisers', 'organizers'], ['analysed', 'analyzed'],
      ['signalling', 'signaling'], ['labelled', 'labeled'], ['modelling', 'modeling'],
    ];
    for (const [british, american] of cases) expect([british, americanSpelling(british)]).toEqual([british, american]);
  });

  it('leaves American spellings and look-alike words alone', () => {
    for (const word of ['tumor', 'hour', 'four', 'journal', 'analyses', 'analysis', 'diagnoses', 'crises', 'rise', 'noise', 'isolated', 'decision', 'does', 'poem', 'leucine']) {
      expect([word, americanSpelling(word)]).toEqual([word, word]);
    }
  });

  it('a whole text: every word as americanSpelling has it, the rest unchanged', () => {
    const text = 'tumours in the centre were randomised 3 times; haem levels and behavioural signalling analysed, 4 hours of labour';
    expect(americanSpellingOfText(text)).toBe(text.replace(/[a-z]+/g, americanSpelling));
    expect(americanSpellingOfText(text)).toBe('tumors in the center were randomized 3 times; hem levels and behavioral signaling analyzed, 4 hours of labor');
  });

  it('a word asked again (kept from the first time) spells the same; so does one asked after the kept words were dropped', () => {
    const cases: [string, string][] = [['tumours', 'tumors'], ['hours', 'hours'], ['analysed', 'analyzed'], ['does', 'does']];
    for (let round = 0; round < 2; round++) for (const [word, spelled] of cases) expect([word, americanSpelling(word)]).toEqual([word, spelled]);
    // More distinct candidate words than are kept: the cache starts again, and every answer holds.
    for (let i = 0; i <= SPELLING_CACHE_WORDS; i++) americanSpelling(`w${i.toString(36).replace(/\d/g, 'x')}our`);
    for (const [word, spelled] of cases) expect([word, americanSpelling(word)]).toEqual([word, spelled]);
    expect(americanSpelling('xyzour')).toBe('xyzour');
    expect(americanSpelling('favour')).toBe('favor');
  });

  it('a word longer than the kept ones is still spelled (every time)', () => {
    const long = `${'a'.repeat(SPELLING_CACHE_MAX_LENGTH)}isation`;
    expect(americanSpelling(long)).toBe(`${'a'.repeat(SPELLING_CACHE_MAX_LENGTH)}ization`);
    expect(americanSpelling(long)).toBe(`${'a'.repeat(SPELLING_CACHE_MAX_LENGTH)}ization`);
  });

  it('documents are indexed in one spelling; a query also keeps its own, for rows written before', () => {
    expect(keywordText('Tumour suppression in randomised trials')).toBe(keywordText('tumor suppression in randomized trials'));
    expect(keywordQueryText('Tumour suppression')).toBe('tumor tumour suppression');
    expect(keywordQueryText('tumor suppression')).toBe(keywordText('tumor suppression'));
  });
});

describe('chunkKeywordText', () => {
  it('writes the heading HEADING_REPEATS times before the embedding text', () => {
    const text = chunkKeywordText({ section: 'Remote work', embedding_text: 'Remote work\nApply in the portal.' });
    expect(text).toBe(`${'remote work '.repeat(HEADING_REPEATS)}remote work apply in the portal`);
    expect(chunkKeywordText({ section: '', embedding_text: 'Body only.' })).toBe('body only');
  });
});
