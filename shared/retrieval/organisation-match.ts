/**
 * Whether a question names an organisation by one of the aliases its documents gave it (issue
 * 29): a ticker or short name in any case ("nvda", "Amzn", "NVDA") unless it is also a common
 * English word ("cost", "low", "target": then only as written in capitals, capitalised inside a
 * sentence, or as an owner — "Target's"), a two-letter one only in capitals,
 * an "&" written as "and", "n" or "+" ("JnJ", "J and J" for "J&J"), a hyphen as a space
 * ("Coca Cola"). Pure; the aliases come from the documents' profiles.
 */

/**
 * Common English words of two to four letters, a few longer ones a finance question uses as
 * words ("target", "principal", "equity") and finance abbreviations: a ticker or a one-word name
 * spelled like one is matched only as written in capitals, capitalised inside a sentence, or as
 * an owner ("Target's"). Language knowledge, not names.
 */
const COMMON_WORDS = new Set(
  (
    'am an as at be by do go he if in is it me my no of on or so to up us we ' +
    'act add age ago aid aim air all and any app are arm art ask bad bag ban bar bed big bid bit box boy bus but buy can cap car cat cut day did die dig dog due ear eat end era etc eye fan far fee few fit fix fly for fun gap gas get got gun had has her him his hit hot how ice ill its job key kid lab law lay led leg let lie lot low man map max may men met min mix net new nor not now odd off oil old one our out own pay per pop pot pro put ran raw red rid row run saw say sea see set she sit six sky son sum tax ten the tie tip too top toy try two use van via war was way web wet who why win won yes yet you ' +
    'able also area away back bank base bear beat been best bill body bond book both call came card care case cash chip city cool core cost data date deal debt deep does done down draw drop each earn east easy edge else even ever face fact fair fall fast fear feel file fill find fine fire firm five flat flow food form four free from full fund gain game gave give goal goes gold good grew grow half hand hard have head hear held help here high hold home hope hour idea into item just keep kind knew know land last late lead left less life like line link list live load loan long look loss lost made mail main make many mark mean meet mind more most move much must name near need news next nine none note once only open over page paid part pass past peak plan play plus pool poor post pull push rate read real rely rest rise risk road role rose rule safe said sale same save seen sell send ship shop show side sign site size slow snap sold some soon spot star stay step stop such sure take talk team tell term test text than that them then they this time told tool tour town tree true turn type unit upon used user very view vote wage wait walk wall want week well went were west what when whom wide will wind with word work year your zero ' +
    'eps roe roa roic ebit gaap capex opex cogs yoy qoq ttm ceo cfo coo esg ipo etf usd eur gbp gdp cpu gpu ' +
    'about after again ball block carrier crown equity match mosaic principal progress progressive regions shift square target total unity united general'
  ).split(' '),
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const patterns = new Map<string, RegExp>();

/** The pattern of a (lower-case) alias: "&" between short parts also as "and", "n", "+"; hyphens and spaces alike. */
function aliasPattern(alias: string): RegExp {
  let re = patterns.get(alias);
  if (re) return re;
  const parts = alias.split(/\s*&\s*/);
  const short = parts.length > 1 && parts.every((p) => p.length <= 2);
  const amp = short ? `\\s*(?:&|and|n|'n'?|\\+)\\s*` : `\\s*(?:&|and)\\s*`;
  const body = parts.map((p) => escape(p).replace(/-/g, '[\\s-]?').replace(/ +/g, '[\\s-]+')).join(amp);
  re = new RegExp(`${B}${body}${E}`, 'giu');
  patterns.set(alias, re);
  return re;
}

/** Whether `alias` (lower case, as profiles store it) occurs in `question` (as written). */
export function mentionsAlias(question: string, alias: string): boolean {
  if (alias.length < 2) return false;
  const text = question.normalize('NFKC').replace(/[’‘]/g, "'");
  if (/[\uAC00-\uD7A3]/.test(alias)) return text.toLowerCase().includes(alias);
  const re = aliasPattern(alias);
  re.lastIndex = 0;
  const word = /^[a-z]+$/.test(alias);
  const guarded = word && (alias.length <= 2 || COMMON_WORDS.has(alias));
  if (!guarded) return re.test(text);
  for (const m of text.matchAll(re)) {
    const written = m[0];
    // In capitals it is a symbol or an acronym whatever it spells.
    if (written === written.toUpperCase()) return true;
    if (alias.length === 2) continue;
    // A common word names the organisation only capitalised inside a sentence ("at Cost", not
    // "Cost of sales"), or as an owner at its start ("Target's revenue").
    const before = text.slice(0, m.index).trimEnd();
    const owner = /^'s\b/.test(text.slice(m.index + written.length));
    if (/^\p{Lu}/u.test(written) && ((before !== '' && !/[.?!:;]$/.test(before)) || owner)) return true;
  }
  return false;
}
