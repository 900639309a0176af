import { describe, expect, it } from 'vitest';
import { splitSentenceSpans, splitSentences } from '../../shared/chunk/sentences.ts';

describe('splitSentences — English', () => {
  it.each([
    ['plain sentences', 'One here. Two there! Three? Four.', ['One here.', 'Two there!', 'Three?', 'Four.']],
    ['titles and months', 'Dr. Smith met Mrs. Jones on Jan. 5. They talked.', ['Dr. Smith met Mrs. Jones on Jan. 5.', 'They talked.']],
    ['e.g. and i.e.', 'Use a cipher, e.g. AES. Or a hash, i.e. SHA-256 here. Done.', ['Use a cipher, e.g. AES.', 'Or a hash, i.e. SHA-256 here.', 'Done.']],
    ['dotted abbreviation mid-sentence', 'Made in the U.S. by hand. Shipped.', ['Made in the U.S. by hand.', 'Shipped.']],
    ['decimals', 'Version 1.5 is out. Price is 3.99 today.', ['Version 1.5 is out.', 'Price is 3.99 today.']],
    ['section references', 'See Section 4.1.2 for the rule. It applies.', ['See Section 4.1.2 for the rule.', 'It applies.']],
    ['reference words before numbers', 'See Fig. 3 and No. 5 and Art. 12 and pp. 4 here. Next.', ['See Fig. 3 and No. 5 and Art. 12 and pp. 4 here.', 'Next.']],
    ['initials', 'J. R. R. Tolkien wrote it. It sold.', ['J. R. R. Tolkien wrote it.', 'It sold.']],
    ['ellipsis then lower case', 'Wait... what happened. Then... The end.', ['Wait... what happened.', 'Then...', 'The end.']],
    ['unicode ellipsis', 'So it goes… And on.', ['So it goes…', 'And on.']],
    ['closing quotes and brackets', 'He said "Stop." Then left. (A note.) Next.', ['He said "Stop."', 'Then left.', '(A note.)', 'Next.']],
    ['leading list number', '1. Introduction covers scope. It is short.', ['1. Introduction covers scope.', 'It is short.']],
    ['leading section number', '4.1.2. Cookies are set here. Always.', ['4.1.2. Cookies are set here.', 'Always.']],
    ['a legal form before a ticker', 'Acme Robotics, Inc. (NASDAQ: ACMR) today reported results. Acme, Inc. The end.', ['Acme Robotics, Inc. (NASDAQ: ACMR) today reported results.', 'Acme, Inc.', 'The end.']],
    ['lower-case continuation after etc.', 'Keys, tokens, etc. are secrets. Keep them.', ['Keys, tokens, etc. are secrets.', 'Keep them.']],
    ['soft line wraps are not boundaries', 'This sentence wraps\nacross lines. Next one.', ['This sentence wraps\nacross lines.', 'Next one.']],
    ['blank line is a hard boundary', 'A heading without a stop\n\nThe paragraph.', ['A heading without a stop', 'The paragraph.']],
    ['no terminal punctuation', 'just words', ['just words']],
    ['question and exclamation chains', 'Really?! Yes.', ['Really?!', 'Yes.']],
  ])('%s', (_name, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it('returns nothing for blank text', () => {
    expect(splitSentences('   \n\n ')).toEqual([]);
    expect(splitSentences('')).toEqual([]);
  });

  it('spans are trimmed offsets into the text', () => {
    const text = '  First one.   Second one.  ';
    const spans = splitSentenceSpans(text);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['First one.', 'Second one.']);
  });
});

describe('splitSentences — Korean', () => {
  it.each([
    ['다. endings', '근로자는 장려금을 받을 수 있다. 사용자는 지급하여야 한다.', ['근로자는 장려금을 받을 수 있다.', '사용자는 지급하여야 한다.']],
    ['요. 까? 죠. endings', '신청은 온라인으로 해요. 서류가 필요한가요? 네 필요하죠. 감사합니다!', ['신청은 온라인으로 해요.', '서류가 필요한가요?', '네 필요하죠.', '감사합니다!']],
    ['nominal endings 함. 음. 임.', '제출 기한을 준수함. 예외는 없음. 대상은 근로자임.', ['제출 기한을 준수함.', '예외는 없음.', '대상은 근로자임.']],
    ['missing space after a sentence', '시행한다.다만 예외가 있다.', ['시행한다.', '다만 예외가 있다.']],
    ['dotted dates are not boundaries', '이 법은 2025. 2. 23.부터 시행한다. 끝.', ['이 법은 2025. 2. 23.부터 시행한다.', '끝.']],
    ['dotted date before a space', '공포일은 2024. 10. 22. 이다.', ['공포일은 2024. 10. 22. 이다.']],
    ['ideographic full stop', '第一句。第二句！第三句？', ['第一句。', '第二句！', '第三句？']],
    ['circled numbers start clauses', '① 사용자는 임금을 지급한다. ② 근로자는 근로를 제공한다.', ['① 사용자는 임금을 지급한다.', '② 근로자는 근로를 제공한다.']],
    ['circled number after a clause without a stop', '① 첫째 항 ② 둘째 항', ['① 첫째 항', '② 둘째 항']],
    ['article heading stays with its first clause', '제1조(목적) ① 이 법은 근로조건의 기준을 정한다. ② 다음과 같다.', ['제1조(목적) ① 이 법은 근로조건의 기준을 정한다.', '② 다음과 같다.']],
    ['article heading without title', '제50조 ① 1주 간의 근로시간은 40시간을 초과할 수 없다.', ['제50조 ① 1주 간의 근로시간은 40시간을 초과할 수 없다.']],
    ['branch article 제N조의N', '제43조의2(체불사업주 명단 공개) ① 고용노동부장관은 공개할 수 있다.', ['제43조의2(체불사업주 명단 공개) ① 고용노동부장관은 공개할 수 있다.']],
    ['syllable item markers', '가. 첫 번째 항목이다. 나. 두 번째 항목이다.', ['가. 첫 번째 항목이다.', '나. 두 번째 항목이다.']],
    ['decimals in Korean text', '비율은 1.5배로 한다. 끝.', ['비율은 1.5배로 한다.', '끝.']],
    ['quoted definition', '"근로자"란 사람을 말한다. "사용자"란 사업주를 말한다.', ['"근로자"란 사람을 말한다.', '"사용자"란 사업주를 말한다.']],
    ['mixed Korean and English', 'TLS 1.3을 사용한다. It is required.', ['TLS 1.3을 사용한다.', 'It is required.']],
    ['bracketed header', '[시행 2025. 2. 23.] [법률 제20520호, 2024. 10. 22., 일부개정]', ['[시행 2025. 2. 23.]', '[법률 제20520호, 2024. 10. 22., 일부개정]']],
  ])('%s', (_name, text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });
});
