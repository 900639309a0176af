/**
 * Provisions named by number: "제8조", "Section 4.2", "§ 3" in a question, and whether a passage
 * is that provision by its section path or first line. What a question naming one asks about is
 * that provision, whatever else shares its words. Pure.
 */

/**
 * The provisions a question names by number: a Korean article ("제8조", "제 8 조의2"), an article,
 * section, clause or paragraph ("Article 12", "Section 4.2", "§ 3"; not "Section 10b"). Keys as
 * {@link holdsReference} reads them.
 */
export function namedReferences(question: string): string[] {
  const out = new Set<string>();
  for (const m of question.matchAll(/제\s?(\d+)\s?조(?:\s?의\s?(\d+))?/gu)) out.add(`제${m[1]}조${m[2] ? `의${m[2]}` : ''}`);
  for (const m of question.matchAll(/(?:\b(?:article|section|clause|paragraph)\s+|§\s*)(\d+(?:\.\d+)*)(?![\d.]*\d|\p{L})/giu)) out.add(m[1] as string);
  return [...out];
}

/** A body's first line that reads as a heading: a dozen words at most, not ending as a sentence does. */
function headingLine(body: string): string[] {
  const first = body.trimStart().split('\n')[0]?.trim() ?? '';
  return first !== '' && first.split(/\s+/u).length <= 12 && !/[.!?。]$|다$/u.test(first) ? [first] : [];
}

/** The headings a passage is filed under, spaces taken out: its section path, and its body's first line when that reads as one. */
function headsOf(passage: { sectionPath: string; body: string }): string[] {
  return [...passage.sectionPath.split(' > '), ...headingLine(passage.body)].map((h) => h.replace(/\s+/gu, ''));
}

/** Whether a heading (spaces taken out) names the provision a key names, compiled once per key. */
function headingNames(key: string): (head: string) => boolean {
  if (key.startsWith('제')) return (h) => h.startsWith(key) && !/^의/u.test(h.slice(key.length)) && !/^\d/u.test(h.slice(key.length));
  const re = new RegExp(`^(?:(?:article|section|clause|paragraph)|§)?${key.replace(/\./gu, '\\.')}(?:\\.|\\)|[^\\d.]|$)`, 'iu');
  return (h) => re.test(h);
}

/**
 * Whether a passage is the provision a key names: its section path, or its body's first line when
 * that reads as a heading, holds it as a heading does ("제8조(신청 및 지급)", "4.2. Payload",
 * "Section 4.2 Payload"; not "4.2 million customers were served.").
 */
export function holdsReference(passage: { sectionPath: string; body: string }, key: string): boolean {
  return headsOf(passage).some(headingNames(key));
}

/**
 * Whether a passage is a provision the question names ({@link holdsReference} for each of its
 * {@link namedReferences}, the keys compiled once), or null when it names none.
 */
export function provisionMatcher(question: string): ((passage: { sectionPath: string; body: string }) => boolean) | null {
  const tests = namedReferences(question).map(headingNames);
  if (tests.length === 0) return null;
  return (passage) => {
    const heads = headsOf(passage);
    return tests.some((names) => heads.some(names));
  };
}
