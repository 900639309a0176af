/**
 * What a passage's sentences are and what a question asks for, read by the extractive answerer:
 * the kinds of statement a question asks for (an amount, a time, who decides), a heading or an
 * entry of a table of contents rather than a sentence, a table run into one line, and the words of
 * a question that only name a document. Pure.
 */
import { looksLikeTitle } from '../sectionize/index.ts';
import { ASKS_LIMIT, STATES_AT_LEAST, STATES_AT_MOST } from '../retrieval/index.ts';
import { ASKS_OUTLOOK, ASKS_SAID } from '../figures/index.ts';

/** A count as a rule writes it: digits, or a number in words ("sixteen", "forty-five"). */
const UNITS_WORD = '(?:one|two|three|four|five|six|seven|eight|nine)';
const COUNT = `(?:\\d+(?:[.,]\\d+)?|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-${UNITS_WORD})?|${UNITS_WORD}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|(?:a|one|two|three|four|five)\\s+hundred|hundred)`;

/** A statement can be quoted; a question or a heading only leads to one. */
export type SentenceRole = 'statement' | 'question' | 'heading';

/** A sentence (or a heading line) of a passage, as the answerer reads it. */
export interface PassageSentence {
  /** Index of its passage among the answer's passages. */
  chunk: number;
  /** Its order within its passage. */
  position: number;
  text: string;
  /** Where the sentence sits in its passage's body (for the quote's pages and the viewer). */
  start: number;
  end: number;
  role: SentenceRole;
}

/** A line saying when something applies from: "Effective date: March 1, 2024", "Effective: October 1, 2024". */
const STATES_EFFECTIVE = /\beffective(?:\s+date)?\s*:|\b(?:is|are|becomes?|became)\s+effective\b/iu;

/** A question asking why: what drives, caused or explains something ("Why is the guidance lower?", "이유는?"). */
export const ASKS_REASON = /^\s*why\b|\bwhat\s+(?:is|are|was|were)\s+(?:driving|behind|causing)\b|\bwhat\s+(?:drove|drives|caused|causes|explains?)\b|\b(?:say|said|says)\s+drove\b|\bdrivers?\s+of\b|\breasons?\s+(?:for|why|behind)\b|왜|이유|원인/iu;

/** A sentence giving a reason: "because", "due to", "driven by", "came from", "reflecting", 때문, 인해. */
const STATES_REASON = /\b(?:because|due\s+to|driven\s+by|reflect(?:s|ed|ing)|c(?:ame|omes?)\s+from|result(?:s|ed)?\s+(?:of|from)|as\s+a\s+result\s+of|attributable\s+to|owing\s+to|thanks\s+to|led\s+by|primarily\s+(?:from|by))\b|때문|인해|인하여|원인은/iu;

/** A sentence saying what is expected ("we expect revenue between …", "guidance", "outlook", 전망, 예상). */
export const STATES_OUTLOOK = /\b(?:expect(?:s|ed|ing)?|guidance|outlook|forecast(?:s|ed)?|anticipate[sd]?|we\s+(?:will|plan\s+to|intend\s+to|aim\s+to))\b|전망|예상|계획/iu;

/** A question in the past tense ("What was …", "How much did …"): what was reported, not what is expected. */
export const ASKS_REPORTED = /^\s*(?:what|which|how\s+(?:much|many))\b[^?]*?\b(?:was|were|did|had)\b/iu;

/**
 * The kinds of statement a question can ask for: `asks` reads the question, `states` a sentence.
 * Korean has no word boundaries a regex knows (`\b` is ASCII), so its words stand alone.
 */
export const ANSWER_KINDS: readonly {
  asks: RegExp;
  states: RegExp;
  /** A short line stating it is a table's row, not a heading. */
  row: boolean;
  /** Only a sentence stating it answers at all (the others weigh less: see extractive-answer.ts). */
  required?: boolean;
  /** An amount: a question asking why ({@link ASKS_REASON}) is answered by a reason, not by one. */
  amount?: boolean;
}[] = [
  {
    // Amounts, rates, limits, changes or results over periods.
    asks: /\b(?:how\s+much|how\s+many|how\s+(?:large|big)|maximum|minimum|limits?|size|capacity|threshold|amount|revenue|revenues|sales|income|expenses?|costs?|margin|cash|debt|profit|loss|earnings|spending|expenditures?|investments?|inventor(?:y|ies)|repurchases?|buybacks?|dividends?|tax|rates?|impacts?|effects?|affect(?:s|ed)?|fluctuat\w*|liquidity|movements?|shift(?:s|ed)?|scale|magnitude|extent|change[ds]?|increase[ds]?|decrease[ds]?|grow(?:th|n)?|decline[ds]?|trend|compare[ds]?)\b|얼마(?!\s*나?\s*(?:거주|살아|살고|살아야|근무|재직|일해|일하|걸리|걸려|기다|지나|오래|다니|다녀|계속))|금액|비율|몇\s*(?:명|개|건|회|퍼센트|%)/iu,
    states: /[$€£¥₩]\s?\d|\d[\d,.]*\s?(?:%|percent|million|billion|thousand|원|억|만|[KMGT]i?B\b|bytes?\b|characters\b)/iu,
    row: true,
    amount: true,
  },
  {
    // A deadline, a period, a date, or how often ("매월 1회", "every month": when wages are paid).
    asks: /^\s*(?:and\s+|so\s+)?when\b|\bwhen\s+(?:is|are|was|were|do|does|did|must|should|can|could|will|would|may|shall|has|have|had)\b|\b(?:by|until)\s+when\b|\b(?:how\s+(?:long|soon|often)|by\s+what\s+date|deadline|time\s+limit|within\s+how|how\s+many\s+(?:hours|days|weeks|months|years))\b|언제|기한|기간|며칠|몇\s*(?:시간|일|주|개월|달|년)|얼마\s*(?:동안|만에|나\s*걸)|얼마\s*나?\s*(?:거주|살아|살고|살아야|근무|재직|일해|일하|걸리|걸려|기다|지나|오래|다니|다녀|계속)/iu,
    states:
      new RegExp(
        `\\b${COUNT}\\s*(?:\\(\\d+\\)\\s*)?(?:[a-z-]+\\s+)?(?:hours?|days?|weeks?|months?|years?)\\b|\\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\\s+\\d{1,2}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\d+\\s*(?:시간|일(?!분)|주일?|개월|달|년)(?:\\s*(?:이내|안에|까지|전|후|동안|마다|이상|이하))?|\\b(?:every|each)\\s+(?:day|week|month|quarter|year)\\b|\\b(?:daily|weekly|monthly|quarterly|annually)\\b|매(?:일|주|월|분기|년)`,
        'iu',
      ),
    row: true,
  },
  {
    // Why something moved: a sentence giving its cause ("About two thirds of the improvement came
    // from pricing"), over one naming the same figure without one.
    asks: ASKS_REASON,
    states: STATES_REASON,
    row: false,
  },
  {
    // What a company expects ("What revenue guidance did Acme give?"): its guidance, not its results.
    asks: ASKS_OUTLOOK,
    states: STATES_OUTLOOK,
    row: false,
  },
  {
    // A limit, the most or the least allowed, stated with its figure: "no more than 100
    // consecutive failed attempts", "MUST NOT exceed 2^14 bytes", "12시간을 한도로".
    asks: ASKS_LIMIT,
    states: new RegExp(`^(?=.*(?:${STATES_AT_MOST.source}|${STATES_AT_LEAST.source}))(?=.*(?:\\d|\\b${COUNT}\\b))`, 'isu'),
    row: true,
  },
  {
    // Who approves, decides or answers for something: a rule names a role or a body, not a person.
    asks: /\bwho(?:m|se)?\b.*\b(?:approv\w*|decid\w*|decision|authori[sz]\w*|sign\w*|review\w*|responsib\w*|accountable|in\s+charge|confirm\w*|grant\w*|permi\w*)|\b(?:approv\w*|decid\w*|authori[sz]\w*|sign\w*|review\w*|grant\w*)\b.*\bwho(?:m|se)?\b|(?:누가|누구|어느\s*(?:부서|기관|팀)).*(?:승인|결정|결재|허가|허락|책임|담당|검토|확인|서명)|(?:승인|결정|결재|허가|허락|책임|담당|검토|확인|서명).*(?:누가|누구|권자)/iu,
    states:
      /\b(?:manager|supervisor|director|head\s+of|committee|board|department|team\s+lead(?:er)?|people\s+operations|human\s+resources|officer|chief|ceo|cfo|president|administrator|owner)s?\b|팀장|부서장|본부장|실장|센터장|인사팀|인사부|총무팀|대표이사|대표자|위원회|책임자|관리자|담당자|승인권자|결재권자|사업주|장관|청장|시장|군수|구청장/iu,
    // "Manager approval" over its section is a heading.
    row: false,
    required: true,
  },
];

/**
 * Units a question can ask a count of ("how many hours", "몇 시간", "며칠", "how many weeks"),
 * and a sentence stating such a count.
 */
const UNITS: readonly { asks: RegExp; states: RegExp }[] = (() => {
  const count = (en: string, ko: string): string => `\\b${COUNT}\\s*(?:\\(\\d+\\)\\s*)?(?:[a-z-]+\\s+)?(?:${en})\\b|\\d+\\s*(?:${ko})`;
  // A Korean day or year that is part of a date ("3월 1일", "2025년 2월") is no count.
  const en = { hours: 'hours?|hrs?|minutes?', days: 'days?', weeks: 'weeks?', months: 'months?', years: 'years?' };
  const ko = { hours: '시간|분(?!\\s*의)', days: '일(?!\\s*(?:부터|자|\\d))', weeks: '주', months: '개월|달', years: '년(?!\\s*\\d+\\s*월)' };
  type Unit = keyof typeof en;
  // A span asked in one unit is answered in it or the next one up or down: leave asked in days
  // may be granted in weeks, but "1년간" does not say how many days.
  const states = (...units: Unit[]): RegExp => new RegExp(`(?<!월\\s*)(?:${count(units.map((u) => en[u]).join('|'), units.map((u) => ko[u]).join('|'))})`, 'iu');
  return [
    { asks: /\bhow\s+many\s+(?:\w+\s+)?(?:hours|minutes)\b|몇\s*(?:시간|분)/iu, states: states('hours') },
    { asks: /\bhow\s+many\s+(?:\w+\s+)?days\b|며칠|몇\s*일/iu, states: states('days', 'weeks') },
    { asks: /\bhow\s+many\s+(?:\w+\s+)?weeks\b|몇\s*주/iu, states: states('days', 'weeks', 'months') },
    { asks: /\bhow\s+many\s+(?:\w+\s+)?months\b|몇\s*(?:개월|달)/iu, states: states('weeks', 'months', 'years') },
    { asks: /\bhow\s+many\s+(?:\w+\s+)?years\b|몇\s*년/iu, states: states('months', 'years') },
  ];
})();

/**
 * What a sentence must state when the question asks a count of a unit ("1주에 몇 시간까지" wants
 * hours: "12시간을 한도로", not the "5일 이내" of another article), or null.
 */
export function askedUnit(question: string): RegExp | null {
  return UNITS.find((u) => u.asks.test(question))?.states ?? countedThing(question);
}

/** Words after "how many" that are no thing counted ("how many of", "how many more"). */
const NOT_COUNTED = /^(?:of|more|fewer|less|times?|percent|in|at|for|are|is|were|was|do|does|did|have|has|can|will)$/iu;

/**
 * A count of the thing a question asks how many of — "how many employees" wants "300 employees"
 * (or "300 new employees"), not the quarter's revenue; "몇 명" a number of people — or null.
 */
function countedThing(question: string): RegExp | null {
  const ko = /몇\s*(명|개|건|곳|차례)/u.exec(question)?.[1];
  if (ko) return new RegExp(`\\d[\\d,.]*\\s*(?:만\\s*|천\\s*)?${ko}`, 'u');
  const words = /\bhow\s+many\s+([a-z-]+)(?:\s+([a-z-]+))?/iu.exec(question);
  if (!words || NOT_COUNTED.test(words[1] as string)) return null;
  // "how many new stores": the thing is the second word when the first qualifies it.
  const noun = words[2] && !/s$/iu.test(words[1] as string) && /s$/iu.test(words[2]) ? words[2] : (words[1] as string);
  const stem = noun.replace(/(?:es|s)$/iu, '');
  if (stem.length < 3) return null;
  return new RegExp(`\\b${COUNT}\\s*(?:[a-z-]+\\s+){0,2}${stem}(?:e?s|e)?\\b`, 'iu');
}

/**
 * A sentence's text as the question's words are matched against it: a limit it states in other
 * words also says "minimum" or "maximum" (and 최소, 최대), so "What is the minimum length …" finds
 * "… at least 8 characters in length".
 */
export function matchText(text: string): string {
  const extra = [
    ...(STATES_AT_LEAST.test(text) ? ['minimum', '최소'] : []),
    ...(STATES_AT_MOST.test(text) ? ['maximum', '최대'] : []),
    // "Effective date: March 1, 2024" says when a rule takes effect, in other words.
    ...(STATES_EFFECTIVE.test(text) ? ['take', 'effect'] : []),
  ];
  return extra.length > 0 ? `${text} ${extra.join(' ')}` : text;
}

/**
 * A question asking what someone said ("What did the CFO say drove …", "according to the CEO",
 * "How did management describe …"): who spoke is part of what is asked, beside the topic. The
 * figure path's words for it (shared/figures' ASKS_SAID), and "explain", "describe", "according to".
 */
export const ASKS_WHO_SAID = new RegExp(`${ASKS_SAID.source}|\\b(?:comment(?:s|ed)?|talk(?:s|ed)?|according\\s+to|explain(?:s|ed)?|describe[ds]?|told?|tell)\\b|(?:말했|언급|발언|설명했)`, 'iu');

/**
 * A question asking what someone asked ("What did the analyst from Halden Securities ask about?",
 * "Which questions were raised about margins?", "어떤 질문을 했나요?"): the questions a passage
 * prints answer it.
 */
export const ASKS_WHAT_WAS_ASKED =
  /\bwhat\s+(?:did|do|does|was|were|has|have)\b.*\b(?:ask(?:ed)?|inquire[d]?)\b|\b(?:which|what)\s+questions?\b|\bquestions?\s+(?:were\s+)?(?:asked|raised)\b|(?:무엇을|무슨|어떤)\s*질문|질문(?:했|한|하였)/iu;

/** Ends as a sentence does: a full stop, a question or exclamation mark, a colon, a Korean ending. */
const SENTENCE_END = /[.!?。:;)…]\s*$|[다요]\.?$/u;

/** A provision's title line: its number and its name in brackets ("제60조(연차 유급휴가)", "Article 12 (Notice)"). */
const PROVISION_TITLE = /^(?:제\s*\d+\s*조(?:의\s*\d+)?|(?:article|section|clause)\s+[\d.]+|§\s*[\d.]+)\s*[(（][^)）]{1,60}[)）]$/iu;

/**
 * A numbered section's title line ("5.3 Unpaid extension", "4.2.2. Size Limits", "A.3 Complexity");
 * a bare number is no section's ("23 Item 1" is a page number glued to the next page's running head).
 */
const NUMBERED_TITLE = /^(?:\d{1,2}\.(?:\d{1,2}\.?)*|[A-Z]\.\d{1,2}(?:\.\d{1,2})*\.?)\s+\p{Lu}/u;

/**
 * Whether a heading line names a section of its own — a provision ("제54조(휴게)") or a numbered
 * section — that a citation can name: a passage merged from several short sections prints each
 * one's title over its text.
 */
export function isSectionTitle(text: string): boolean {
  const t = text.trim();
  return PROVISION_TITLE.test(t) || /^제\s*\d+\s*조(?:의\s*\d+)?(?:\s|$)/u.test(t) || (NUMBERED_TITLE.test(t) && t.split(/\s+/u).length <= 10);
}

/** Whether a text ends as a sentence does (a full stop, a colon, a Korean ending), unlike a table's row run into a line. */
export function endsSentence(text: string): boolean {
  return SENTENCE_END.test(text);
}

/** A heading or title line rather than a sentence: a few words, no sentence-ending mark; a provision's title. */
export function isHeadingFragment(text: string): boolean {
  return PROVISION_TITLE.test(text.trim()) || (!SENTENCE_END.test(text) && (text.split(/\s+/u).length <= 8 || isContentsEntry(text)));
}

/**
 * An entry of a table of contents: a title followed by its page number ("Management's Discussion
 * and Analysis of Financial Condition and Results of Operations 15"), however long the title.
 */
function isContentsEntry(text: string): boolean {
  const entry = /^(.*\p{L}.*?)(?:\s*\.{2,})?\s+\d{1,3}$/u.exec(text);
  return entry !== null && looksLikeTitle(entry[1] as string, 24, 200) && !/[$€£¥₩%]/u.test(text);
}

/** States an amount or a time limit: a short line that does ("Unpaid extension up to 8 weeks") is a table's row, not a heading. */
export function statesFact(text: string): boolean {
  return ANSWER_KINDS.some((kind) => kind.row && kind.states.test(text));
}

/**
 * Whether a sentence starts mid-thought: in lower case (after any bullet), as an item of a list
 * whose lead-in is elsewhere ("difficulty or inability in obtaining governmental … approval;") or
 * the end of a wrapped line. A name set in lower case ("iPhone", "eBay") is no such start.
 */
export function startsMidThought(text: string): boolean {
  const t = text.replace(/^[•·▪◦*–—-]\s*/u, '');
  return /^\p{Ll}\p{Ll}*(?:[\s,;:.]|$)/u.test(t) && /^[a-z]/u.test(t);
}

/**
 * A table whose rows were printed as one line of text (one the extraction did not read as a
 * table): many words, several numbers, and no sentence ending. Quoted, it reads as run-on cells
 * ("Component Duration Pay Paid parental leave 16 weeks 100% …") that state no figure as an answer;
 * so are fields set apart by printed bars, and a code listing run into a line.
 */
export function isRunOnCells(text: string): boolean {
  // Fields set apart by printed bars: a masthead ("인사팀 | 제정 2022. 5. 2. | 시행 2024. 3. 1."), a row.
  if ((text.match(/\s[|｜]\s/gu)?.length ?? 0) >= 2) return true;
  // A code listing run into a line (a standard's "hello_request_RESERVED(0), client_hello(1), …"):
  // identifiers, not words.
  const tokens = text.split(/\s+/u);
  const code = tokens.filter((t) => /^[\p{L}\d]+_[\p{L}\d_]*|^\w+\(\d+\)[,;]?$/u.test(t)).length;
  if (code >= 4 && code >= 0.3 * tokens.length) return true;
  if (SENTENCE_END.test(text) || text.split(/\s+/u).length <= 12) return false;
  return (text.match(/\d+(?:[.,]\d+)*/gu)?.length ?? 0) >= 3;
}

/**
 * The question less the words that name a passage's document ("in the records exchange protocol"
 * of a document titled "Records Exchange Protocol (REP), Version 1.1"): runs of two or more words
 * that all stand in one title and hold what it calls the document ("protocol", "policy"). They led
 * to the document; within it they match its title page and preamble, not the answer. The question
 * is kept whole when nothing else would be left.
 */
export function withoutDocumentNames(question: string, titles: readonly string[]): string {
  const { words, named } = documentNames(question, titles);
  const rest = words.filter((w, i) => !named[i] && /[\p{L}\p{N}]/u.test(w));
  return rest.some((w) => !STOP_WORDS.has(nameKey(w))) ? words.filter((_, i) => !named[i]).join(' ') : question;
}

/** The titles among `titles` the question names its document by (see {@link withoutDocumentNames}). */
export function namedTitles(question: string, titles: readonly string[]): Set<string> {
  return documentNames(question, titles).titles;
}

const nameKey = (w: string): string => w.toLowerCase().replace(/['’]s$/u, '').replace(/[^\p{L}\p{N}]+/gu, '');

/** The question's words, which of them name a passage's document, and the titles they name. */
function documentNames(question: string, titles: readonly string[]): { words: string[]; named: boolean[]; titles: Set<string> } {
  const words = question.split(/\s+/u).filter((w) => w !== '');
  const named = new Array<boolean>(words.length).fill(false);
  const found = new Set<string>();
  for (const title of titles) {
    const inTitle = new Set(title.split(/[\s\-–—·,:()]+/u).map(nameKey).filter((w) => w !== ''));
    // What the title calls the document: the last word of its first part ("Protocol" in "Records
    // Exchange Protocol (REP), Version 1.1"). "my parental leave" names a subject, not the policy.
    const head = nameKey(title.split(/\s*[,(:—–]\s*|\s+-\s+/u)[0]?.trim().split(/\s+/u).at(-1) ?? '');
    for (let i = 0; i < words.length; ) {
      let j = i;
      while (j < words.length && nameKey(words[j] as string) !== '' && inTitle.has(nameKey(words[j] as string))) j++;
      if (j - i >= 2 && words.slice(i, j).some((w) => nameKey(w) === head)) {
        for (let k = i; k < j; k++) named[k] = true;
        found.add(title);
      }
      i = Math.max(j, i + 1);
    }
  }
  return { words, named, titles: found };
}

/** Question words that say nothing of what is asked: a question of only these and names is kept whole. */
const STOP_WORDS = new Set(['what', 'which', 'who', 'how', 'when', 'where', 'why', 'is', 'are', 'was', 'were', 'does', 'do', 'did', 'the', 'a', 'an', 'in', 'of', 'on', 'for', 'to', 'say', 'says', 'about']);

/**
 * The title of a passage's own section when its body does not start with it: the last part of its
 * section path, unless that is the preamble (text before the first heading) or only the document's title.
 */
export function sectionTitle(chunk: { sectionPath: string; body: string; title: string }): string | null {
  const title = chunk.sectionPath.split(' > ').at(-1)?.trim() ?? '';
  if (title === '' || title === 'Preamble' || title === chunk.title) return null;
  return chunk.body.trimStart().startsWith(title) ? null : title;
}

/** A quarter a sentence names: "fourth quarter", "first-quarter", "Q3", "3Q", "3Q23", "3분기". */
const QUARTER_NAMED = /\b(?:(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+(?:fiscal\s+)?quarter|q([1-4])|([1-4])q(?:fy)?(?:\d{2}){0,2})\b|([1-4])\s*분기/giu;
const QUARTER_ORDINAL: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };

/** The quarters (1–4) a text names, by number. */
export function quartersNamed(text: string): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(QUARTER_NAMED)) {
    const q = m[1] ? QUARTER_ORDINAL[m[1].toLowerCase()] : Number(m[2] ?? m[3] ?? m[4]);
    if (q) out.add(q);
  }
  return out;
}
