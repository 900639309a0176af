/**
 * What a question's abbreviations stand for, as reports spell them out: "R&D" is printed
 * "research and development", "capex" "capital expenditures", "CFO" "Chief Financial Officer". A
 * keyword index splits "R&D" into "r" and "d", and a report rarely uses "capex", so the keyword
 * side searches the spelled-out words too. Short on purpose: abbreviations that reports, releases,
 * calls and standards use, each with one reading. Pure.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  'r&d': 'research and development',
  'sg&a': 'selling general and administrative',
  'd&a': 'depreciation and amortization',
  'm&a': 'mergers and acquisitions',
  'q&a': 'questions and answers',
  eps: 'earnings per share',
  capex: 'capital expenditures',
  opex: 'operating expenses',
  cogs: 'cost of goods sold',
  fcf: 'free cash flow',
  ebitda: 'earnings before interest taxes depreciation and amortization',
  fx: 'foreign exchange currency',
  yoy: 'year over year',
  ytd: 'year to date',
  asp: 'average selling price',
  asps: 'average selling prices',
  ceo: 'chief executive officer',
  cfo: 'chief financial officer',
  coo: 'chief operating officer',
  cto: 'chief technology officer',
  iot: 'internet of things',
  ai: 'artificial intelligence',
  roe: 'return on equity',
  roic: 'return on invested capital',
  arr: 'annual recurring revenue',
};

/** Word-like tokens of a text, "&" kept inside ("R&D", "SG&A"). */
const TOKEN = /[\p{L}\p{N}]+(?:&[\p{L}\p{N}]+)*/gu;

/** The spelled-out forms of the abbreviations `text` uses, each once, none it already spells out. */
export function spelledOutAbbreviations(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  for (const [token] of lower.matchAll(TOKEN)) {
    const full = ABBREVIATIONS[token];
    if (full && !lower.includes(full) && !out.includes(full)) out.push(full);
  }
  return out;
}
