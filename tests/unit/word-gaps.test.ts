import { describe, expect, it } from 'vitest';
import { spaceNonWords } from '../../shared/retrieval/word-gaps.ts';
import { createRng } from '../fixtures/corpus-vocabulary.ts';

/** What spaceNonWords must equal: the Unicode-property regex it replaces. */
const byRegex = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, ' ');

describe('spaceNonWords', () => {
  it('turns every run of non-letters and non-digits into one space, as the regex does', () => {
    const cases: [string, string][] = [
      ['The Company’s revenue — up 12%!', 'The Company s revenue up 12 '],
      ['출산 장려금은 제50조에 따라… 지급한다.', '출산 장려금은 제50조에 따라 지급한다 '],
      ['TNF-α gata3', 'TNF α gata3'],
      ['', ''],
      ['---', ' '],
      ['abc', 'abc'],
      [' a ', ' a '],
      ['é-à_ü', 'é à ü'],
    ];
    for (const [text, spaced] of cases) expect([text, spaceNonWords(text)]).toEqual([text, spaced]);
  });

  it('reads code points, not code units: letters beyond the BMP stay, emoji and lone surrogates go', () => {
    for (const text of ['a\u{1D400}b', 'x😀y', '😀\u{1D400}😀', '\uD800x', 'x\uDC00', '\u{10000}\u{10000}', 'a\u0301b', 'nbsp\u00A0zw\u200Bsp']) {
      expect([text, spaceNonWords(text)]).toEqual([text, byRegex(text)]);
    }
  });

  it('equals the regex on 50,000 random strings of mixed scripts, marks, spaces and surrogates', () => {
    const pool = ['a', 'Z', '0', '9', ' ', '.', ',', '’', '—', '가', '힣', 'ㄱ', 'é', '\u0301', 'α', 'Ω', '_', '-', '😀', '\u{1D400}', '\uD800', '\uDC00', '\u00A0', '\t', '\n', '一', '٣', 'Ⅻ'];
    // Seeded: a failing string is the same on every run.
    const rng = createRng(15);
    for (let k = 0; k < 50_000; k++) {
      let text = '';
      const length = rng.int(0, 13);
      for (let j = 0; j < length; j++) text += rng.pick(pool);
      if (spaceNonWords(text) !== byRegex(text)) expect([text, spaceNonWords(text)]).toEqual([text, byRegex(text)]);
    }
  });
});
