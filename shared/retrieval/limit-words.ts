/**
 * Limits as questions ask for them and as rules state them. A question asks for "the maximum
 * lifetime" or "연장근로 한도"; a standard writes "MUST NOT use any value greater than 604800
 * seconds", "The length MUST NOT exceed 2^14 bytes", a law "12시간을 한도로", a policy "at least 8
 * characters". Neither side's words are the other's, so the keyword side also searches the words
 * rules state limits with, and the answerer prefers a sentence stating a limit. Pure.
 */

/** A question asking for the most or the least allowed. */
export const ASKS_LIMIT =
  /\b(?:maximum|minimum|max|min|limits?|limited|cap|capped|ceiling|upper\s+bound|lower\s+bound|at\s+(?:most|least)|longest|shortest|largest|smallest|how\s+(?:long|many|much|often|large|big|small)\s+(?:can|may|must|is\s+allowed|are\s+allowed))\b|한도|최대|최소|상한|하한|최장|최단|까지\s*(?:가능|할\s*수|되나|인가|인지|허용)/iu;

/** A negation a few words before a comparison: "MUST NOT use any value greater than", "may not carry over more than". */
const NEGATED = String.raw`\b(?:not|never|no)\b(?:\s+[\w-]+){0,4}?\s+`;

/** A lower limit stated: "at least 8 characters", "no fewer than", "not shorter than", "30분 이상". */
export const STATES_AT_LEAST = new RegExp(
  String.raw`\b(?:at\s+least|or\s+more|or\s+longer|minimum\s+of)\b|${NEGATED}(?:less|fewer|shorter|smaller|lower)\s+than\b|이상`,
  'iu',
);

/** An upper limit stated: "no more than 100", "MUST NOT exceed 2^14 bytes", "or less", "12시간을 한도로", "초과할 수 없다". */
export const STATES_AT_MOST = new RegExp(
  String.raw`\b(?:at\s+most|up\s+to|or\s+(?:fewer|less|shorter)|limit(?:s|ed)?\s+to|maximum\s+of|(?:not|cannot)\s+(?:to\s+)?exceed)\b|${NEGATED}(?:greater|more|longer|larger|higher|later)\s+than\b|이하|이내|한도|초과할\s*수\s*없|넘(?:지|을\s*수\s*없)`,
  'iu',
);

/** An upper limit asked for in English ("maximum", "longest"), whose keyword side needs the words rules use. */
const ASKS_MOST = /\b(?:maximum|max|limits?|cap|ceiling|upper\s+bound|at\s+most|longest|largest)\b/iu;
/** An upper limit asked for in Korean ("최대", "상한"), or a limit a law sets "한도로". */
const ASKS_MOST_KO = /최대|상한|최장/u;

/**
 * Words a rule states the limit a question asks for with, none the question already has: an
 * English maximum is written "MUST NOT exceed" or "greater than"; a Korean 최대 "한도" or "초과".
 */
export function limitSearchWords(question: string): string[] {
  const lower = question.toLowerCase();
  const words = [...(ASKS_MOST.test(lower) ? ['exceed', 'exceeds', 'greater'] : []), ...(ASKS_MOST_KO.test(lower) ? ['한도', '초과'] : [])];
  return words.filter((w) => !lower.includes(w));
}
