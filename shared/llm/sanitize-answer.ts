/**
 * The model's answer is untrusted output: a passage that talked the model round can make it emit
 * a link to an attacker's site, or a markdown image whose URL — fetched by whatever renders the
 * answer — carries data out. So before an answer leaves Quarry every link, image and URL that
 * does not appear in the passages the answer cites is removed, and HTML is stripped. Pure.
 */

/** What {@link sanitizeModelAnswer} removed, by kind (counts only: traces carry no text). */
export interface SanitizeReport {
  /** Markdown links and link definitions to a URL outside the cited passages (their text stays). */
  links: number;
  /** Markdown images, every one: an image is fetched when rendered. */
  images: number;
  /** Bare URLs and autolinks outside the cited passages. */
  urls: number;
  /** HTML tags and comments (`<script>`, `<style>`, `<iframe>`… with their content). */
  html: number;
}

/** A sanitised answer. */
export interface SanitizedAnswer {
  text: string;
  removed: SanitizeReport;
}

// A URL as written in prose: scheme or "www.", up to whitespace, quotes, brackets or markup.
const URL_IN_TEXT = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>"'`()[\]{}]+/gi;
const TRAILING = /[.,;:!?'"’”)\]}>*_~]+$/;
// Elements whose content is code or embedded media, removed whole.
const WITH_CONTENT = /<(script|style|iframe|object|embed|svg|math|template|noscript|textarea|video|audio|form)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi;
const AUTOLINK = /<((?:https?|ftp|mailto):[^\s<>]+)>/gi;
const IMAGE = /!\[([^\]\n]*)\]\(\s*<?([^\s)>]*)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const LINK = /\[([^\]\n]*)\]\(\s*<?([^\s)>]*)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const DEFINITION = /^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$/gm;

/**
 * Comparison form of a URL: lower case, without scheme, "www.", trailing punctuation or slash;
 * so `https://www.Example.com/a/` written by the model matches `www.example.com/a` in a passage.
 */
export function urlKey(url: string): string {
  return url
    .trim()
    .replace(TRAILING, '')
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
}

/** The URLs written in `text` (scheme or "www." forms), trailing punctuation dropped. */
export function findUrls(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(TRAILING, '')).filter((u) => u.length > 0);
}

/**
 * Removes from `answer` what could send a reader, or a renderer, somewhere the cited passages do
 * not: markdown links to other URLs become their text (`[t](url)` → `t`; a citation-looking
 * `[1](url)` stays `[1]`), markdown images are removed (one whose URL is in the passages is left
 * as that plain URL), link definitions, autolinks and bare URLs to other URLs are removed, and
 * HTML is stripped (`<a>` and other tags leave their text; `<script>`, `<style>`, `<iframe>` and
 * the like go with their content). URLs that appear in `citedPassages` are kept.
 */
export function sanitizeModelAnswer(answer: string, citedPassages: readonly string[]): SanitizedAnswer {
  const allowed = new Set(citedPassages.flatMap(findUrls).map(urlKey).filter((k) => k.length > 0));
  const isAllowed = (url: string) => {
    const key = urlKey(url);
    return key.length > 0 && allowed.has(key);
  };
  const removed: SanitizeReport = { links: 0, images: 0, urls: 0, html: 0 };
  let t = answer;

  // Autolinks first: they look like tags.
  t = t.replace(AUTOLINK, (_m, url: string) => {
    if (isAllowed(url)) return url;
    removed.urls += 1;
    return '';
  });
  t = t.replace(WITH_CONTENT, () => {
    removed.html += 1;
    return '';
  });
  t = t.replace(COMMENT, () => {
    removed.html += 1;
    return '';
  });
  t = t.replace(TAG, () => {
    removed.html += 1;
    return '';
  });
  t = t.replace(IMAGE, (_m, _alt: string, url: string) => {
    removed.images += 1;
    return isAllowed(url) ? url : '';
  });
  t = t.replace(LINK, (m, text: string, url: string) => {
    if (isAllowed(url)) return m;
    removed.links += 1;
    return /^\d+$/.test(text.trim()) ? `[${text.trim()}]` : text;
  });
  t = t.replace(DEFINITION, (m, url: string) => {
    if (isAllowed(url)) return m;
    removed.links += 1;
    return '';
  });
  // What is left of a URL now is prose (or an allowed link's target, kept above).
  t = t.replace(URL_IN_TEXT, (m) => {
    const url = m.replace(TRAILING, '');
    if (isAllowed(url)) return m;
    removed.urls += 1;
    return m.slice(url.length);
  });
  const changed = removed.links + removed.images + removed.urls + removed.html > 0;
  // Removals leave doubled spaces and spaces before punctuation; tidy only what was touched.
  if (changed) t = t.replace(/[ \t]{2,}/g, ' ').replace(/[ \t]+([.,;:!?])/g, '$1').replace(/\n{3,}/g, '\n\n').trim();
  return { text: t, removed };
}
