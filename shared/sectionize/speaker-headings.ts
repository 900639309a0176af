/**
 * A call transcript's structure: its sessions ("Prepared Remarks", "Questions and Answers") and
 * each speaker's turn, as the common layouts print them —
 *
 * - a name and a role on one line: "Marcus Lee -- Chief Financial Officer", "Priya Raman --
 *   Halden Securities -- Analyst", "Dana Whitfield, Orchard Systems, Inc. - VP of IR [2]";
 * - a name over a line of its role or firm: "Marcus Lee" / "Executive VP & CFO";
 * - a name alone, the list of participants giving its role, or the call introducing it;
 * - a name opening the line it speaks: "Marcus Lee: Thank you, Dana." ("김민준 부사장: 감사합니다.");
 * - "Operator", "Moderator", 사회자.
 *
 * A turn's title names the speaker with the role the transcript gives them, so a passage and its
 * citation say who spoke ("Marcus Lee -- Chief Financial Officer"). Pure.
 */
import type { FlatLine } from './flat-lines.ts';
import type { Heading } from './heading.ts';

/** Words of a speaker's role in a call transcript ("Chief Financial Officer", "Analyst"). */
const ROLE_WORD =
  /\b(?:officer|president|chair(?:man|woman|person)?|ceo|cfo|coo|cto|cio|evp|svp|vp|director|head|vice|analyst|relations|ir|treasurer|controller|manager|partner|founder|executive|secretary|counsel|spokes(?:person|man|woman))\b|(?:회장|사장|전무|상무|이사|본부장|실장|팀장|부장|애널리스트|연구원)/iu;
/**
 * An analyst's firm, printed where an executive's role would be: a name ending in a firm's word
 * ("Halden Securities", "Crédit Suisse AG, Research Division", "미래에셋증권"). A line ending so
 * ("Capital Expenditures" does not) names no office of a statement.
 */
const FIRM =
  /(?:\b(?:inc|llc|ltd|plc|corp(?:oration)?|co|ag|sa|nv|lp|securities|capital|bank|partners|markets|advisors|equities|group|research\s+division)\.?|증권|투자증권|자산운용)$/iu;
/** Who runs the call. */
const HOST = /^(?:operator|moderator|host|conference operator|사회자|진행자)$/iu;
/** A session of the call, or the list of who took part. */
const SESSION =
  /^(?:prepared\s+remarks|presentation|opening\s+remarks|management\s+(?:discussion|remarks)(?:\s+section)?|questions?\s*(?:-\s*)?(?:and|&)\s*(?:-\s*)?answers?(?:\s+session)?|q\s*&\s*a(?:\s+session)?|(?:call|company|corporate|conference\s+call)\s+participants|participants|executives|analysts|질의\s*응답|발표|참석자)\s*:?$/iu;

/** A personal name: two to five capitalised words ("Timothy D. Cook", "Ana de la Cruz"), or a Korean name with its title ("김민준 부사장"). */
const NAME = /^\p{Lu}[\p{Ll}'’-][\p{L}'’-]*(?:\s+(?:\p{Lu}\.|\p{Lu}[\p{Ll}'’-][\p{L}'’-]*\.?|de|da|di|du|del|la|le|van|von|der|den|bin|al|dos))+$/u;
/**
 * A name in capitals, as many transcripts print a speaker's label ("PRIYA NATARAJAN:", "TIMOTHY D.
 * COOK"). A heading in capitals reads alike ("RISK FACTORS"), so such a name opens a turn only
 * when the participants list or the call names the person.
 */
const CAPITALS_NAME = /^\p{Lu}[\p{Lu}'’-]+(?:\s+(?:\p{Lu}\.|\p{Lu}[\p{Lu}'’-]+\.?|DE|DA|DI|DU|DEL|LA|LE|VAN|VON|DER|DEN)){1,4}$/u;
const KOREAN_NAME = /^[가-힣]{2,4}(?:\s+[가-힣A-Z()]{1,10}){0,2}$/u;
/** A name, a separator, then a role or firm: "Name -- Role", "Name - Role", "Name, Firm - Role". */
const NAME_AND_ROLE = /^(\p{Lu}\p{Ll}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|de|da|van|von|der|la|le)){1,4})\s*(?:--|—|–|-|,)\s*(.{2,100})$/u;
/** A company's legal form alone, after its name. */
const LEGAL_FORM = /^(?:inc|llc|ltd|plc|corp(?:oration)?|co|ag|sa|nv|lp|l\.p)\.?$/iu;
/** Words a call introduces a speaker with: "comes from Priya Raman", "over to Dana Whitfield", "joined by …". */
const INTRODUCED = '(?:from|to|introduce|welcome|joined\\s+by|line\\s+of|(?:today|me)\\s+(?:is|are))';
/** A Refinitiv turn counter at a line's end ("Operator [1]"). */
const TURN_COUNTER = /\[\d+\]$/u;
/** What every speaker line starts with: a capital, a Hangul syllable, a bracket. */
const SPEAKER_START = /^[\p{Lu}\uAC00-\uD7A3[]/u;
/** Longer lines are spoken text (a speaker line with a role runs to about a hundred characters). */
const MAX_SPEAKER_LINE = 160;
/** A line ending a sentence, not an abbreviation ("Inc.", "Co."). */
const SENTENCE_END = /(?<!\b(?:inc|corp|co|ltd|plc|llc|jr|sr|no))[.!?]$/iu;

/**
 * A speaker line without its colon, turn counter or brackets ("Operator [1]", "[김민준 부사장]").
 * Trimmed by hand: a regex anchored at the end only scans every run of spaces of every line.
 */
function clean(text: string): string {
  let t = text.trim();
  if (t.endsWith(':')) t = t.slice(0, -1).trimEnd();
  const counter = TURN_COUNTER.exec(t);
  if (counter) t = t.slice(0, counter.index).trimEnd();
  return t.startsWith('[') && t.endsWith(']') && !t.slice(1, -1).includes(']') ? t.slice(1, -1).trim() : t;
}

function isName(text: string): boolean {
  if (text.length > 48 || !SPEAKER_START.test(text.trimStart())) return false;
  const t = clean(text);
  if (t.length > 40) return false;
  if (KOREAN_NAME.test(t)) return ROLE_WORD.test(t.replace(/^[가-힣]{2,4}/u, ''));
  // "Alder Capital", "Investor Relations": a firm or an office, not a person.
  return (NAME.test(t) || CAPITALS_NAME.test(t)) && !SESSION.test(t) && !ROLE_WORD.test(t) && !FIRM.test(t);
}

/** Words a role or a firm's name writes in lower case ("Director of Investor Relations"). */
const ROLE_LOWER = /^(?:of|and|the|for|de|du|des|der|van|von|&|-|--|—|–)$/u;

/**
 * A role or firm line: short, no sentence, its words capitalised but for "of", "and" and the like
 * ("Vice President, Investor Relations", "Halden Securities, Research Division"), and an office
 * or a firm named. Prose naming someone ("Elena Park, our Chief Executive Officer, and …") is none.
 */
function isRoleText(text: string): boolean {
  const t = clean(text);
  const words = t.split(/\s+/u);
  return (
    words.length <= 10 &&
    !SENTENCE_END.test(t) &&
    words.every((w) => !/^\p{Ll}/u.test(w) || ROLE_LOWER.test(w)) &&
    (ROLE_WORD.test(t) || FIRM.test(t))
  );
}

/** The name and role of a line printing both, or null. */
function nameAndRole(text: string): { name: string; role: string } | null {
  if (text.length > MAX_SPEAKER_LINE || !SPEAKER_START.test(text.trimStart())) return null;
  const t = clean(text);
  // A Korean name is printed with its title ("김민준 부사장(CFO)"): the two are the speaker's name.
  if (HOST.test(t) || (KOREAN_NAME.test(t) && isName(t))) return { name: t, role: '' };
  const m = NAME_AND_ROLE.exec(t);
  if (!m || SENTENCE_END.test(t)) return null;
  const name = (m[1] as string).trim();
  const role = (m[2] as string).trim();
  // "Chief Executive Officer, Orchard Systems" is an office, "Halden Securities, Research Division"
  // and "Nuance Communications, Inc." are firms, not people.
  if (ROLE_WORD.test(name) || FIRM.test(name) || LEGAL_FORM.test(role) || !isRoleText(role)) return null;
  return { name, role };
}

/**
 * A transcript's speaker line, printed over what the speaker said: "Operator", "Marcus Lee --
 * Chief Financial Officer", "Alex Chen, Morgan Stanley, Analyst", "김민준 부사장(CFO)". A heading
 * ("PART I — FINANCIAL INFORMATION", "Gross Margin") is none: a name is written in lower case
 * after its capital, and a role names an office or a firm.
 */
export function isSpeakerLine(text: string): boolean {
  return nameAndRole(text) !== null;
}

/** A line a speaker's turn may open with, before the turns are confirmed. */
interface Candidate {
  line: number;
  span: number;
  name: string;
  /** The role the line itself gives, if any. */
  role: string | null;
  /** Words spoken on the same line after "Name:". */
  rest: string;
  /** Printed name and role together (one line, or a name over its role). */
  explicit: boolean;
}

/** A line opening with "Name: …" ("Marcus Lee, CFO: …", "Operator: …"): its speaker and the words after the label. */
function inlineLabel(i: number, text: string): Candidate | null {
  const colon = text.indexOf(':');
  if (colon < 2 || colon > 62 || !SPEAKER_START.test(text.trimStart())) return null;
  const m = /^([^:]{2,60}?)\s*:\s+(\S.*)$/u.exec(text.trim());
  if (!m) return null;
  const label = (m[1] as string).trim();
  const rest = (m[2] as string).trim();
  const both = nameAndRole(label);
  if (both) return { line: i, span: 1, name: both.name, role: both.role || null, rest, explicit: true };
  return isName(label) ? { line: i, span: 1, name: clean(label), role: null, rest, explicit: false } : null;
}

function candidateAt(lines: readonly FlatLine[], dropped: ReadonlySet<number>, i: number): Candidate | null {
  const text = lines[i]?.text ?? '';
  const both = nameAndRole(text);
  if (both) return { line: i, span: 1, name: both.name, role: both.role || null, rest: '', explicit: true };
  if (isName(text)) {
    const next = lines[i + 1];
    // A name over its role or firm ("Priya Raman" / "Halden Securities, Research Division").
    const under = next && !dropped.has(i + 1) && !isName(next.text) && !nameAndRole(next.text) && isRoleText(next.text);
    return under
      ? { line: i, span: 2, name: clean(text), role: clean(next.text), rest: '', explicit: true }
      : { line: i, span: 1, name: clean(text), role: null, rest: '', explicit: false };
  }
  return inlineLabel(i, text);
}

/** The key a speaker is known by across the transcript. */
function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** Two to four capitalised words: a name as a sentence mentions it. */
const NAME_WORDS = "\\p{Lu}[\\p{L}'’.-]*(?:\\s+\\p{Lu}[\\p{L}'’.-]*){1,3}";
/** "comes from Priya Raman", "over to Dana Whitfield", "joined by …". */
const INTRODUCTION = new RegExp(`\\b${INTRODUCED}\\s+(${NAME_WORDS})`, 'gu');
/** "Elena Park, our Chief Executive Officer", "Tom Becker with Alder Capital". */
const INTRODUCED_AS = new RegExp(`(${NAME_WORDS})(?:,\\s*(?:our|the company's|its)?\\s*|\\s+(?:with|from|of)\\s+)(\\p{Lu}[^,.;:!?\\n]{1,60})`, 'gu');

/** Every run of two or more consecutive words of a name found in a sentence ("Today Elena Park": "Elena Park" too). */
function nameRuns(words: string): string[] {
  const w = words.split(/\s+/u);
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) for (let j = i + 2; j <= w.length; j++) out.push(nameKey(w.slice(i, j).join(' ')));
  return out;
}

/**
 * The speakers a call introduces, read in one pass over what it says: the names it introduces
 * ("our first question comes from Priya Raman") and the role it gives them, where it does ("Elena
 * Park, our Chief Executive Officer", "Dana Whitfield, Vice President of Investor Relations",
 * "Tom Becker with Alder Capital").
 */
function introductions(spoken: string): { named: Set<string>; roles: Map<string, string>; printed: Map<string, string> } {
  const named = new Set<string>();
  const roles = new Map<string, string>();
  const printed = new Map<string, string>();
  const print = (name: string): void => {
    if (!printed.has(nameKey(name))) printed.set(nameKey(name), name);
  };
  for (const m of spoken.matchAll(INTRODUCTION)) {
    for (const k of nameRuns(m[1] as string)) named.add(k);
    print(m[1] as string);
  }
  for (const m of spoken.matchAll(INTRODUCED_AS)) {
    const role = (m[2] as string).trim();
    if (!isRoleText(role)) continue;
    for (const k of nameRuns(m[1] as string)) {
      named.add(k);
      if (!roles.has(k)) roles.set(k, role);
    }
    print(m[1] as string);
  }
  return { named, roles, printed };
}

/** Turns needed, and distinct speakers among them, for a document to be read as a transcript. */
const MIN_TURNS = 3;
const MIN_SPEAKERS = 2;
/** A transcript's pages each hold a turn or two. */
const MIN_TURNS_PER_PAGE = 0.5;
/** Share of the turns needed that an operator's or a printed role's must be. */
const MIN_SAID_SHARE = 0.25;

/**
 * Whether the confirmed turns make a transcript: three or more by two speakers or more, and
 * about a turn every other page (a report naming three people in its front matter has a few in all).
 */
function isTranscript(turns: readonly Candidate[], pages: number): boolean {
  return turns.length >= turnsNeeded(pages) && new Set(turns.map((c) => nameKey(c.name))).size >= MIN_SPEAKERS;
}

/**
 * An operator speaks, or three turns print their speaker's role — and such turns are a quarter of
 * the turns the document's length needs, at least: the call says it is one. A standard listing
 * its contributors over their affiliations ("Pete Chown" / "Skygate Technology Ltd") does not.
 */
function announced(turns: readonly Candidate[], host: (c: Candidate) => boolean, pages: number): boolean {
  const said = turns.filter((c) => c.explicit || host(c)).length;
  return (turns.some(host) || turns.filter((c) => c.explicit).length >= MIN_TURNS) && said >= MIN_SAID_SHARE * turnsNeeded(pages);
}

/** Turns a document of `pages` pages needs to be a transcript. */
function turnsNeeded(pages: number): number {
  return Math.max(MIN_TURNS, MIN_TURNS_PER_PAGE * pages);
}

/**
 * Headings of a call transcript: its sessions (rank 1) and speakers' turns (rank 2), or none
 * when the document is no transcript ({@link announced}, {@link isTranscript}). A run of
 * speaker lines with nothing spoken between them is a list of participants, not turns; it stays
 * the text of the session it is printed under. A name printed alone (or opening its line) opens
 * a turn when the list of participants gives it or when the call names it in a sentence ("our
 * next question comes from …"); the list, or the sentence introducing them, gives its role.
 */
export function speakerHeadings(lines: readonly FlatLine[], dropped: ReadonlySet<number>): Heading[] {
  const sessions: Heading[] = [];
  const found: Candidate[] = [];
  const read = new Map<number, Candidate | null>();
  const at = (i: number): Candidate | null => {
    let c = read.get(i);
    if (c === undefined) read.set(i, (c = candidateAt(lines, dropped, i)));
    return c;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line || dropped.has(i)) continue;
    if (SESSION.test(line.text.trim())) {
      sessions.push({ line: i, span: 1, title: clean(line.text), rest: '', rank: 1, source: 'pattern' });
      continue;
    }
    const c = at(i);
    if (!c) continue;
    found.push(c);
    i += c.span - 1;
  }
  const sessionLines = new Set(sessions.map((s) => s.line));
  const opensTurn = (c: Candidate): boolean => {
    if (c.rest) return true;
    // The next printed line is spoken text, not another speaker or a session.
    let j = c.line + c.span;
    while (j < lines.length && dropped.has(j)) j++;
    const next = lines[j];
    return next !== undefined && !sessionLines.has(j) && at(j) === null;
  };
  const roles = new Map<string, string>();
  for (const c of found) if (c.role && !roles.has(nameKey(c.name))) roles.set(nameKey(c.name), c.role);
  const turns = found.filter(opensTurn);
  const host = (c: Candidate): boolean => HOST.test(c.name);
  // Only a call with an operator, or with speakers printed with their roles, is looked at further.
  const pages = lines[lines.length - 1]?.page ?? 1;
  if (!announced(turns, host, pages)) return [];
  const candidateLines = new Set(found.flatMap((c) => Array.from({ length: c.span }, (_, k) => c.line + k)));
  // A name printed alone is a speaker's when the participants list gives it or the call
  // introduces it; repeated, it may be a table's caption ("Three Months Ended").
  if (!isTranscript(turns, pages)) return [];
  const spoken = [...lines.filter((l, i) => !candidateLines.has(i) && !dropped.has(i)).map((l) => l.text), ...found.map((c) => c.rest)].join('\n');
  const intro = introductions(spoken);
  const confirmed = turns.filter((c) => c.explicit || host(c) || roles.has(nameKey(c.name)) || intro.named.has(nameKey(c.name)));
  if (!isTranscript(confirmed, pages)) return [];
  // A name printed in capitals is titled as the participants list or the call writes it.
  const printed = new Map(intro.printed);
  for (const c of found) if (!CAPITALS_NAME.test(c.name)) printed.set(nameKey(c.name), c.name);
  const speakers = confirmed.map((c): Heading => {
    const key = nameKey(c.name);
    const role = c.role ?? roles.get(key) ?? intro.roles.get(key);
    const capitals = c.name === c.name.toUpperCase() && c.name !== c.name.toLowerCase();
    const name = !capitals ? c.name : HOST.test(c.name) ? `${c.name.charAt(0)}${c.name.slice(1).toLowerCase()}` : (printed.get(key) ?? c.name);
    return { line: c.line, span: c.span, title: role ? `${name} -- ${role}` : name, rest: c.rest, rank: 2, source: 'pattern' };
  });
  return [...sessions, ...speakers].sort((a, b) => a.line - b.line);
}
