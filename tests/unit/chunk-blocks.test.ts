import { describe, expect, it } from 'vitest';
import { findBlocks, LIST_MARKER, tableCells } from '../../shared/chunk/blocks.ts';
import { createCl100kCounter } from '../../shared/chunk/tokenizer.ts';
import { pageAt, separatorBetween, unitsOf } from '../../shared/chunk/units.ts';

const counter = createCl100kCounter();

function kinds(text: string): Array<[string, string]> {
  return findBlocks(text).map((b) => [b.kind, text.slice(b.start, b.end)]);
}

describe('list markers', () => {
  it.each(['- item', '• item', '* item', '· 항목', '① 항', '⑳ 항', '1. item', '12) item', '(3) item', '가. 항목', '나) 항목', '(가) 항목', '(a) item', 'b) item', '(iv) item', '※ 참고'])(
    'recognises %s',
    (line) => expect(LIST_MARKER.test(line)).toBe(true),
  );
  it.each(['2025. 2. 23. 시행', '1.5 percent', '-5 degrees', 'Plain text', '*emphasis*', '제1조(목적)', '4.1.2 Cookies'])('rejects %s', (line) => {
    expect(LIST_MARKER.test(line)).toBe(false);
  });
});

describe('table rows', () => {
  it('splits pipes, tabs and wide gaps', () => {
    expect(tableCells('| a | b | c |')).toEqual(['a', 'b', 'c']);
    expect(tableCells('a\tb\tc')).toEqual(['a', 'b', 'c']);
    expect(tableCells('Name    Age   City')).toEqual(['Name', 'Age', 'City']);
  });
  it('is not fooled by a justified prose line', () => {
    expect(tableCells('This is a normal sentence that happens to have  a double space somewhere in the middle of a long line of text.')).toBeNull();
    expect(tableCells('plain line')).toBeNull();
  });
});

describe('findBlocks', () => {
  it('finds prose, a list and prose again', () => {
    const text = 'Intro sentence. Another one:\n- first item\n- second item\n  wrapped line\n\nAfter the list.';
    expect(kinds(text)).toEqual([
      ['prose', 'Intro sentence. Another one:'],
      ['list', '- first item\n- second item\n  wrapped line'],
      ['prose', 'After the list.'],
    ]);
  });

  it('keeps a list together across blank lines between items', () => {
    const text = '1. one\n\n2. two\n\n3. three';
    expect(kinds(text)).toEqual([['list', text]]);
    expect(findBlocks(text)[0]?.parts).toHaveLength(3);
  });

  it('treats Korean clauses and items as one list (a whole article)', () => {
    const text = '① 이 법에서 사용하는 용어의 뜻은 다음과 같다.\n1. "근로자"란 사람을 말한다.\n2. "사용자"란 사업주를 말한다.\n② 기타 사항은 대통령령으로 정한다.';
    const blocks = findBlocks(text);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.kind).toBe('list');
    // Top-level items are the clauses (항); the numbered items (호) belong to clause ①.
    expect(blocks[0]?.parts).toEqual([0, text.indexOf('②')]);
  });

  it('keeps nested items with their parent when a list is split', () => {
    const items = Array.from({ length: 30 }, (_, i) => `${i + 1}. Step ${i} of the restore procedure must be logged.
   - sub a of step ${i}
   - sub b of step ${i}`);
    const units = unitsOf(items.join('\n'), 200, 150, counter);
    expect(units.map((u) => u.text)).toEqual(items);
  });

  it('ends a list at an unmarked line after a closed item', () => {
    const text = '- item one.\nThis is prose again.';
    expect(kinds(text)).toEqual([
      ['list', '- item one.'],
      ['prose', 'This is prose again.'],
    ]);
  });

  it('finds tables of two or more rows', () => {
    const text = 'Fees are:\n| Plan | Price |\n|---|---|\n| Basic | 10 |\n| Pro | 20 |\nThat is all.';
    expect(kinds(text)).toEqual([
      ['prose', 'Fees are:'],
      ['table', '| Plan | Price |\n|---|---|\n| Basic | 10 |\n| Pro | 20 |'],
      ['prose', 'That is all.'],
    ]);
  });

  it('keeps paragraph breaks inside one prose block', () => {
    expect(kinds('Para one.\n\nPara two.')).toEqual([['prose', 'Para one.\n\nPara two.']]);
  });
});

describe('unitsOf', () => {
  it('keeps lists and tables whole when they fit', () => {
    const text = 'Intro. Second.\n- a\n- b\n- c\nName  Age\nAnn  30\nBob  40';
    const units = unitsOf(text, 900, 600, counter);
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['sentence', 'Intro.'],
      ['sentence', 'Second.'],
      ['list', '- a\n- b\n- c'],
      ['table', 'Name  Age\nAnn  30\nBob  40'],
    ]);
  });

  it('splits an oversized list at item boundaries', () => {
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i} describes one requirement of the backup policy in plain words.`);
    const text = items.join('\n');
    const units = unitsOf(text, 200, 150, counter);
    expect(units.every((u) => u.kind === 'item')).toBe(true);
    expect(units.map((u) => u.text)).toEqual(items);
  });

  it('splits an oversized table into row groups that repeat the header', () => {
    const rows = ['Plan  Price  Limit', ...Array.from({ length: 60 }, (_, i) => `Plan${i}  ${i * 10}  ${i * 100}`)];
    const units = unitsOf(rows.join('\n'), 200, 150, counter);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) {
      expect(u.kind).toBe('rows');
      expect(u.text.startsWith('Plan  Price  Limit')).toBe(true);
      expect(u.tokens).toBeLessThanOrEqual(150);
    }
    const body = units.flatMap((u, i) => (i === 0 ? u.text.split('\n') : u.text.split('\n').slice(1)));
    expect(body).toEqual(rows);
  });

  it('cuts a runaway sentence into fragments within the limit', () => {
    const text = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const units = unitsOf(text, 300, 200, counter);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) expect(counter.count(u.text)).toBeLessThanOrEqual(201);
    expect(units.map((u) => u.text).join(' ')).toBe(text);
  });

  it('cuts unspaced Hangul at characters', () => {
    const text = '가나다라마바사아자차카타파하'.repeat(80);
    const units = unitsOf(text, 300, 200, counter);
    expect(units.length).toBeGreaterThan(1);
    for (const u of units) expect(u.tokens).toBeLessThanOrEqual(200);
    expect(units.map((u) => u.text).join('')).toBe(text);
  });
});

describe('separators and pages', () => {
  it('reads separators from the original gap', () => {
    const text = 'One.\nTwo.\n\nThree.';
    const [a, b, c] = unitsOf(text, 900, 600, counter);
    if (!a || !b || !c) throw new Error('expected three units');
    expect(separatorBetween(text, a, b)).toBe(' ');
    expect(separatorBetween(text, b, c)).toBe('\n\n');
  });

  it('estimates pages proportionally to the offset', () => {
    expect(pageAt(0, 1000, 3, 7)).toBe(3);
    expect(pageAt(999, 1000, 3, 7)).toBe(7);
    expect(pageAt(500, 1000, 3, 7)).toBe(5);
    expect(pageAt(500, 1000, 4, 4)).toBe(4);
    expect(pageAt(2000, 1000, 1, 2)).toBe(2);
  });
});
