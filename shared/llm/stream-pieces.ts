/**
 * Cutting an answer into the pieces a streaming client receives. Pure functions: the answerer
 * calls them, and whatever it streams concatenates to the answer's final text.
 */

/**
 * The pieces of an extractive answer, one quoted sentence each: a piece ends after a citation
 * marker (`[n]`) and the space after it; the lead ("As of 2025-01-01:") rides with the first
 * sentence. Text without markers is one piece. The pieces join to `text` exactly.
 */
export function sentencePieces(text: string): string[] {
  const pieces = text.match(/[\s\S]*?\[\d+\]\s*|[\s\S]+$/g) ?? [];
  return pieces.filter((p) => p.length > 0);
}

/**
 * What a model's output may hide until it is finished: the starts of links, images, URLs and HTML,
 * which the answer's sanitiser may remove (see sanitizeModelAnswer). Streamed text can't be taken
 * back, so nothing from the first of these on is streamed before the sanitised answer is known.
 */
const UNSAFE = /https?:|www\.|:\/\/|<|!\[|\]\(|\b[a-z0-9-]+\.(?:com|net|org|io|ai|co|dev|app|xyz|info|ru|cn)\b/i;

/**
 * The part of a model's partial output that may be streamed now: up to the last whitespace (a
 * word may still grow into a URL) and before the first link-like text.
 */
export function streamablePrefix(raw: string): string {
  const unsafe = UNSAFE.exec(raw);
  const upTo = unsafe ? raw.slice(0, unsafe.index) : raw;
  const lastSpace = Math.max(upTo.lastIndexOf(' '), upTo.lastIndexOf('\n'));
  return lastSpace < 0 ? '' : upTo.slice(0, lastSpace + 1);
}

/**
 * Streams a model's tokens through `onDelta` without ever sending what the sanitiser may remove:
 * `push` each raw token; `finish` with the final (sanitised) text sends what is left. Should the
 * final text not start with what was sent (the sanitiser changed streamed text, which the prefix
 * rule prevents), nothing more is sent and `finish` returns false: the final record is authoritative.
 */
export function createDeltaStreamer(onDelta: (text: string) => void): { push(token: string): void; finish(finalText: string): boolean } {
  let raw = '';
  let sent = '';
  let stopped = false;
  return {
    push(token) {
      raw += token;
      if (stopped) return;
      const safe = streamablePrefix(raw);
      // Once link-like text appears, stop: later text may be re-flowed by the sanitiser.
      if (safe.length < raw.length && UNSAFE.test(raw)) stopped = true;
      if (safe.length > sent.length && safe.startsWith(sent)) {
        onDelta(safe.slice(sent.length));
        sent = safe;
      }
    },
    finish(finalText) {
      if (!finalText.startsWith(sent)) return false;
      if (finalText.length > sent.length) onDelta(finalText.slice(sent.length));
      sent = finalText;
      return true;
    },
  };
}
