import { describe, expect, it } from 'vitest';
import { detectLang } from '../../shared/enrich/lang.ts';

describe('detectLang', () => {
  it.each([
    ['ko', '근로기준법은 근로조건의 기준을 정한다. 사용자는 TLS와 HMAC을 사용하여 데이터를 보호하여야 한다.'],
    ['ko', '제1조(목적) 이 法은 憲法에 따라 근로조건의 기준을 정함으로써 근로자의 기본적 생활을 보장한다.'],
    ['ja', 'この法律は、労働条件の基準を定めることを目的とする。'],
    ['zh', '本法旨在规定劳动条件的基准，保障劳动者的基本生活。'],
    ['ar', 'يهدف هذا القانون إلى تحديد معايير ظروف العمل.'],
    ['ru', 'Настоящий закон устанавливает стандарты условий труда.'],
    ['en', 'The employer shall keep a record of the working hours of each worker for three years.'],
    ['de', 'Der Arbeitgeber ist verpflichtet, die Arbeitszeit der Arbeitnehmer aufzuzeichnen, und die Aufzeichnungen sind mit dem Lohn aufzubewahren.'],
    ['fr', "L'employeur est tenu de conserver les registres des heures de travail pour une durée de trois ans, et il doit les présenter sur demande."],
    ['es', 'El empleador debe conservar los registros de las horas de trabajo por un periodo de tres años y presentarlos con la solicitud.'],
  ])('%s', (lang, text) => {
    expect(detectLang(text)).toBe(lang);
  });

  it('says und for text without letters and en for Latin without stopwords', () => {
    expect(detectLang('')).toBe('und');
    expect(detectLang('12 34 — 56.78 %')).toBe('und');
    expect(detectLang('TLS HMAC SHA256')).toBe('en');
  });

  it('is decided by the dominant script in mixed text', () => {
    expect(detectLang('Quarry 문서 검색 시스템은 PDF를 청크로 나누어 색인한다.')).toBe('ko');
    expect(detectLang('The Korean word 근로자 means worker; the law is the Labor Standards Act.')).toBe('en');
  });
});
