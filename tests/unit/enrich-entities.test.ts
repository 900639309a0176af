import { describe, expect, it } from 'vitest';
import { extractEntities, mergeEntities } from '../../shared/enrich/entities.ts';

describe('extractEntities — English', () => {
  it('finds acronyms, lower-cased, ignoring RFC 2119 keywords and roman numerals', () => {
    const entities = extractEntities('Peers MUST use TLS and SHOULD verify the HMAC. See Part II. APIs are listed.');
    expect(entities).toEqual(expect.arrayContaining(['tls', 'hmac', 'api']));
    for (const noise of ['must', 'should', 'ii']) expect(entities).not.toContain(noise);
  });

  it('ignores shouted heading lines as acronym sources', () => {
    const entities = extractEntities('TERMS AND CONDITIONS OF SERVICE\nThe service uses TLS.');
    expect(entities).toContain('tls');
    expect(entities).not.toContain('conditions');
    expect(entities).not.toContain('terms');
  });

  it('finds capitalised multi-word phrases, without leading stop words', () => {
    const entities = extractEntities('The Transport Layer Security protocol is defined by the Internet Engineering Task Force. The Department of Labor agrees.');
    expect(entities).toEqual(expect.arrayContaining(['transport layer security', 'internet engineering task force', 'department of labor']));
    expect(entities).not.toContain('the transport layer security');
  });

  it('ignores sentence-initial single capitalised words but keeps mid-sentence names', () => {
    const entities = extractEntities('However, the payment goes to Alice. Payments are monthly.');
    expect(entities).toContain('alice');
    expect(entities).not.toContain('however');
    expect(entities).not.toContain('payments');
  });

  it('finds defined and quoted terms', () => {
    const entities = extractEntities('“Employer” means any person. Each "Worker" is covered. Acme Inc. (the "Company") agrees.');
    expect(entities).toEqual(expect.arrayContaining(['employer', 'worker', 'company']));
  });

  it('does not take quoted sentences for terms', () => {
    const entities = extractEntities('He said "we will ship the product to every customer next week without fail." Then left.');
    expect(entities.some((e) => e.includes('ship the product'))).toBe(false);
  });

  it('finds references with their spacing variants', () => {
    const entities = extractEntities('Under Article 5(1) and Section 4.1.2 of RFC 8446, § 3 and ISO 27001 apply (Sec. 7).');
    expect(entities).toEqual(expect.arrayContaining(['article 5(1)', 'article 5', 'section 4.1.2', 'rfc 8446', 'rfc8446', '§ 3', '§3', 'iso 27001', 'section 7']));
    expect(entities).not.toContain('rfc');
  });

  it('is deterministic and duplicate-free', () => {
    const text = 'The Data Controller uses TLS. The Data Controller logs HMAC keys. TLS again.';
    const a = extractEntities(text);
    expect(extractEntities(text)).toEqual(a);
    expect(new Set(a).size).toBe(a.length);
    // Most frequent, heaviest first.
    expect(a.slice(0, 2)).toEqual(['tls', 'data controller']);
  });

  it('returns nothing for text without entities', () => {
    expect(extractEntities('')).toEqual([]);
    expect(extractEntities('1 2 3 … 4.')).toEqual([]);
  });
});

describe('mergeEntities', () => {
  it('orders by the number of chunks carrying an entity, then first appearance, and caps', () => {
    const merged = mergeEntities([['a', 'b'], ['b', 'c'], ['c', 'b', 'd']], 3);
    expect(merged).toEqual(['b', 'c', 'a']);
  });
});
