/**
 * Shapes of figure questions that ask for more than one cell: a part against its whole ("What
 * percentage of total revenue did Services contribute?", "How much of revenue came from Data
 * Center?", "R&D as a percentage of revenue", "data-centric revenue relative to total revenue"),
 * and a breakdown ("the revenue breakdown across its segments"). Pure.
 */

/** A part and the whole it is measured against, as the question words them. */
export interface FigurePair {
  part: string;
  whole: string;
}

const TAIL = String.raw`(?:\s+(?:contribute|contributed|account\s+for|accounted\s+for|represent|represented|make\s+up|made\s+up|generate|generated|come\s+from|came\s+from))?(?:\s+(?:in|for|during|over|as\s+of)\b.*)?\s*[?.]?\s*$`;
const PERIOD_LEAD = String.raw`^(?:(?:in|for|during)\s+[^,]+,\s*)?`;

/** "what percentage / share / portion / proportion of WHOLE did / was … PART …" */
const SHARE_OF = new RegExp(
  `${PERIOD_LEAD}(?:what|which)\\s+(?:percentage|percent|share|portion|proportion|fraction|part)\\s+of\\s+(?<whole>.+?)\\s+(?:did|does|do|was|were|is|are|came|comes|come)\\s+(?:from\\s+|generated\\s+by\\s+|attributed\\s+to\\s+|attributable\\s+to\\s+|accounted\\s+for\\s+by\\s+|contributed\\s+by\\s+|made\\s+up\\s+by\\s+)?(?<part>.+?)${TAIL}`,
  'iu',
);
/** "how much of WHOLE was attributed to / came from PART …" */
const MUCH_OF = new RegExp(
  `${PERIOD_LEAD}how\\s+much\\s+of\\s+(?<whole>.+?)\\s+(?:was|were|is|are|came|comes|did)\\s+(?:attributed\\s+to|attributable\\s+to|from|generated\\s+by|contributed\\s+by|due\\s+to)\\s+(?<part>.+?)${TAIL}`,
  'iu',
);
/** "PART as a percentage / share of WHOLE" */
const AS_SHARE = /(?<part>[^,;?]+?)\s+as\s+a\s+(?:percentage|percent|share|proportion|fraction)\s+of\s+(?<whole>[^,;?]+?)(?:\s+(?:in|for|during)\b[^?]*)?\s*[?.]?\s*$/iu;
/** "PART relative to / versus / against WHOLE" (not "compared to previous quarters": that is a series). */
const VERSUS = /(?<part>[^,;?]+?)\s+(?:relative\s+to|versus|vs\.?|against|in\s+relation\s+to|compared?\s+(?:to|with)|measured?\s+up\s+(?:against|to)|stack(?:ed)?\s+up\s+against)\s+(?!(?:the\s+)?(?:previous|prior|preceding|earlier|last|same|past|year[\s-]+ago)\b)(?<whole>[^,;?]+?)(?:\s+(?:in|for|during)\b[^?]*)?\s*[?.]?\s*$/iu;

/** Question words before a part or whole that say nothing about it ("How significant was the revenue …"). */
const LEAD_WORDS = /^(?:how|what|which)\s+(?:(?:significant|large|big|important|high|much|many)\s+)?(?:(?:was|were|is|are|did|does|do)\s+)?/iu;

/** The part and whole a question compares, or null when it asks for one figure. */
export function figurePair(question: string): FigurePair | null {
  const q = question.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  for (const shape of [SHARE_OF, MUCH_OF, AS_SHARE, VERSUS]) {
    const m = shape.exec(q);
    const part = m?.groups?.['part']?.replace(LEAD_WORDS, '').trim();
    const whole = m?.groups?.['whole']?.replace(LEAD_WORDS, '').trim();
    if (part && whole) return { part, whole };
  }
  return null;
}

/** Words that ask how a total divides ("breakdown", "distribution across segments", "by product"). */
export const BREAKDOWN_WORDS = /\b(?:break\s*down|breakdown|broken\s+down|split|distribution|distributed|composition|composed|components?|mix|by\s+(?:segment|product|region|geograph\w*|category|line|type|business)|across\s+(?:its\s+|the\s+|their\s+)?(?:various\s+|different\s+|diverse\s+|several\s+|main\s+|major\s+|key\s+|business\s+|operating\s+|reportable\s+)*(?:segments|products|product\s+lines|regions|geographies|categories|service\s+offerings|offerings|businesses|business\s+units|lines|divisions|groups))\b/iu;

/** Whether a question asks how a figure divides into its parts. */
export function asksBreakdown(question: string): boolean {
  return BREAKDOWN_WORDS.test(question);
}

/** The words of a breakdown question that name the kind of part ("segment", "product", "region"), lower case. */
export function breakdownCues(question: string): string[] {
  const cues = question.toLowerCase().match(/\b(?:segments?|products?|regions?|geograph\w*|categor\w*|offerings?|services?|businesses|lines?|divisions?|groups?)\b/gu) ?? [];
  return [...new Set(cues.map((c) => c.replace(/(?:ies|s)$/u, '')))];
}

/**
 * Words that ask for what a company expects rather than what it reported: guidance, an outlook, a
 * forecast, what is expected of the next quarter or the long term. "Expected" naming an accounting
 * input ("expected credit losses", "expected term", "expected return on plan assets") asks no outlook.
 */
export const ASKS_OUTLOOK =
  /\b(?:guidance|guided|outlook|forecast(?:s|ed|ing)?|expect(?:s|ed|ing|ations?)?(?!\s+(?:credit|loss|losses|term|life|lives|volatility|dividend|return|useful|rate\s+of\s+return))|anticipat(?:e|es|ed|ing)|next\s+(?:quarter|year|fiscal\s+year)|going\s+forward|long[\s-]term\s+(?:targets?|goals?|model|margin))\b/iu;

/** Whether a question asks what a company expects (guidance, an outlook), not a figure it reported. */
export function asksOutlook(question: string): boolean {
  return ASKS_OUTLOOK.test(question);
}

/** Words a table of expected figures is titled or headed with ("Business Outlook", "Q4 Guidance", "Expected amortization"). */
export const OUTLOOK_TABLE = /\b(?:guidance|outlook|forecast\w*|expect\w*|estimate[sd]?|projected|projections?|targets?)\b/iu;

/** Words that ask what someone said ("What did the CFO say drove …", "What did management mention about …"). */
export const ASKS_SAID = /\b(?:say|says|said|saying|mention(?:s|ed)?|comment(?:s|ed)?\s+(?:on|about)|talk(?:s|ed)?\s+about|remark(?:s|ed)?)\b/iu;

/** Whether a question asks what someone said: the words spoken answer it, not a table's row. */
export function asksWhatWasSaid(question: string): boolean {
  return ASKS_SAID.test(question);
}

/**
 * Words that ask how a figure compares with the same period a year earlier: "year over year",
 * "YoY", "from a year ago", "compared with the prior-year quarter", or growth ("How much did R&D
 * grow?", "revenue growth"), which a release reckons against the year before.
 */
const YEAR_OVER_YEAR =
  /\b(?:year[\s-]+over[\s-]+year|yoy|y\/y|(?:from|than|versus|vs\.?|over|compared\s+(?:to|with))\s+(?:a\s+year\s+(?:ago|earlier|before)|(?:the\s+)?(?:same\s+(?:quarter|period)\s+(?:of\s+|in\s+)?(?:last|the\s+prior|the\s+previous)\s+year|prior[\s-]+year(?:\s+(?:quarter|period))?|previous\s+year|last\s+year))|grow(?:s|th|n)?|grew)\b/iu;

/** Whether a question asks how a figure compares with a year earlier. */
export function asksYearOverYear(question: string): boolean {
  return YEAR_OVER_YEAR.test(question);
}
