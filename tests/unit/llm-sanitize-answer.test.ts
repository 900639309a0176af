import { describe, expect, it } from 'vitest';
import { findUrls, sanitizeModelAnswer, urlKey } from '../../shared/llm/sanitize-answer.ts';

const PASSAGES = ['Refunds are requested at https://shop.example/refunds within 30 days.', 'Questions: see www.shop.example/help or email support.'];

describe('sanitizeModelAnswer', () => {
  it('turns a markdown link to a URL outside the passages into its text, and keeps one inside', () => {
    const out = sanitizeModelAnswer('See [the policy](https://shop.example/refunds) and [click here](https://evil.example/steal?q=secret) [1].', PASSAGES);
    expect(out.text).toBe('See [the policy](https://shop.example/refunds) and click here [1].');
    expect(out.removed).toEqual({ links: 1, images: 0, urls: 0, html: 0 });
  });

  it('removes markdown images (an allowed URL stays as plain text, never as an image)', () => {
    const out = sanitizeModelAnswer('Done ![x](https://evil.example/p.png?d=1) ![logo](https://shop.example/refunds "t") [1]', PASSAGES);
    expect(out.text).toBe('Done https://shop.example/refunds [1]');
    expect(out.removed.images).toBe(2);
  });

  it('removes bare URLs and autolinks outside the passages, keeps those inside (scheme, www and case aside)', () => {
    const out = sanitizeModelAnswer('Go to https://evil.example/x, <https://evil.example/y>, HTTPS://WWW.Shop.example/help/ or https://shop.example/refunds. [1]', PASSAGES);
    expect(out.text).toBe('Go to,, HTTPS://WWW.Shop.example/help/ or https://shop.example/refunds. [1]');
    expect(out.removed.urls).toBe(2);
  });

  it('keeps no prefix or extension of an allowed URL (a query string can carry data out)', () => {
    const out = sanitizeModelAnswer('https://shop.example/refunds?u=alice and https://shop.example/refundsX', PASSAGES);
    expect(out.text).not.toContain('shop.example');
  });

  it('strips HTML: tags leave their text, script/style/iframe go with their content', () => {
    const out = sanitizeModelAnswer(
      'A <a href="https://evil.example">link</a> <img src=https://evil.example/i.png onerror="x()"> <script>fetch("https://evil.example")</script><style>p{}</style><iframe src="https://evil.example"></iframe><!-- hi --> <b>bold</b> 3 < 4 [1]',
      PASSAGES,
    );
    expect(out.text).toBe('A link bold 3 < 4 [1]');
    expect(out.text).not.toMatch(/evil|script|img|fetch/);
    expect(out.removed.html).toBeGreaterThanOrEqual(8);
  });

  it('removes reference-style link definitions to outside URLs and keeps citation brackets of a linked citation', () => {
    const out = sanitizeModelAnswer('Refunds take 30 days [1](https://evil.example/c).\n\n[ref]: https://evil.example/r\n[ok]: https://shop.example/refunds', PASSAGES);
    expect(out.text).toBe('Refunds take 30 days [1].\n\n[ok]: https://shop.example/refunds');
    expect(out.removed.links).toBe(2);
  });

  it('leaves an answer without links untouched', () => {
    const text = 'Refunds are possible within 30 days [1].  Two spaces stay.';
    expect(sanitizeModelAnswer(text, PASSAGES)).toEqual({ text, removed: { links: 0, images: 0, urls: 0, html: 0 } });
  });

  it('with no cited passages keeps no URL at all', () => {
    expect(sanitizeModelAnswer('see https://shop.example/refunds', []).text).toBe('see');
  });
});

describe('findUrls / urlKey', () => {
  it('finds scheme and www URLs without trailing punctuation, and compares them loosely', () => {
    expect(findUrls(PASSAGES.join(' '))).toEqual(['https://shop.example/refunds', 'www.shop.example/help']);
    expect(urlKey('HTTPS://www.Shop.example/help/')).toBe(urlKey('www.shop.example/help'));
  });
});
