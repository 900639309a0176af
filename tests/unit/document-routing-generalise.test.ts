/**
 * Issue 29: routing over held-out collections — spans of years, fiscal years that do not end in
 * December, documents without a period, organisations named by tickers in lower case, by an
 * abbreviation variant or by a brand, earnings releases beside their company's 10-K, and text
 * layers that letter-space small capitals. Every document here is generated (names invented);
 * profiles are built from cover-page lines as extraction produces them.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentProfile } from '../../shared/domain/document.ts';
import { buildDocumentProfile, findOrganisations, organisationAliases, profileLabel } from '../../shared/enrich/document-profile.ts';
import { mayBeLetterSpaced, repairLetterSpacing, wordVocabulary } from '../../shared/enrich/organisation-names.ts';
import { citedPeriodQualifier, findQueryPeriods, routeQuery, type DirectoryEntry } from '../../shared/retrieval/document-routing.ts';
import { mentionsAlias } from '../../shared/retrieval/organisation-match.ts';
import { filedQuarter } from '../../shared/retrieval/period-match.ts';
import { routedHybrid } from '../../shared/retrieval/routed-search.ts';
import { matchesFilter } from '../../shared/store/filter-eval.ts';
import type { HybridHit, HybridQuery } from '../../shared/store/vector-store.ts';

/** A directory entry from a profile built the way ingest builds it. */
function fromText(docId: string, firstPages: string[], body = '', title = docId): DirectoryEntry {
  const profile = buildDocumentProfile(firstPages.join('\n'), body);
  return { doc_id: docId, title, doc_type: profile.form ?? 'unknown', profile };
}

function tenK(registrant: string, ticker: string, ended: string, body = ''): string[][] {
  return [
    [
      'UNITED STATES',
      'SECURITIES AND EXCHANGE COMMISSION',
      'FORM 10-K',
      'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
      `For the fiscal year ended ${ended}`,
      'Commission File Number: 001-00000',
      registrant,
      '(Exact name of registrant as specified in its charter)',
      'Title of each class Trading symbol(s) Name of each exchange on which registered',
      `Common Stock ${ticker} The Nasdaq Stock Market LLC`,
    ],
    [body],
  ];
}

function tenQ(registrant: string, ticker: string, ended: string): string[] {
  return [
    'FORM 10-Q',
    'QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934',
    `For the quarterly period ended ${ended}`,
    'Commission File Number: 001-00000',
    registrant,
    '(Exact name of registrant as specified in its charter)',
    'Title of each class Trading symbol(s) Name of each exchange on which registered',
    `Common Stock ${ticker} The Nasdaq Stock Market LLC`,
  ];
}

function annual(docId: string, registrant: string, ticker: string, ended: string, body = ''): DirectoryEntry {
  const [cover, text] = tenK(registrant, ticker, ended, body);
  return fromText(docId, cover as string[], (text as string[]).join('\n'));
}

describe('a question spanning years routes to every year in the span', () => {
  it.each([
    ['What was the average capex between FY2022 and FY2023?', [2022, 2023]],
    ['the FY2017–FY2019 three-year average of capex as a % of revenue', [2017, 2018, 2019]],
    ['capex FY2017-2019', [2017, 2018, 2019]],
    ['revenue from 2017 to 2019', [2017, 2018, 2019]],
    ['revenue in FY2022-23', [2022, 2023]],
  ])('%s', (q, years) => {
    expect(findQueryPeriods(q).map((p) => p.year)).toEqual(years);
  });

  it('an ISO date or a single year is no span', () => {
    expect(findQueryPeriods('as of 2023-03-31, what was the cash balance?')).toEqual([]);
    expect(findQueryPeriods('What was capex in FY2019?').map((p) => p.year)).toEqual([2019]);
  });

  it("every year's annual report of the company is in the branch, the years outside the span are not", () => {
    const dir = [2016, 2017, 2018, 2019, 2020].map((y) => annual(`lark-${y}`, 'LARKSPUR TOOLS INC.', 'LRKT', `December 31, ${y}`));
    const s = routeQuery("What is the FY2017–FY2019 3 year average of capex as a % of revenue for Larkspur Tools?", dir);
    expect(s.docIds.sort()).toEqual(['lark-2017', 'lark-2018', 'lark-2019']);
    expect(s.periods?.map((p) => p.year)).toEqual([2017, 2018, 2019]);
    expect(s.unmatched).toEqual([]);
    const between = routeQuery('How did Larkspur Tools’ gross margin change between FY2019 and FY2020?', dir);
    expect(between.docIds.sort()).toEqual(['lark-2019', 'lark-2020']);
  });
});

describe('a fiscal year that does not end in December', () => {
  const fy23 = annual('hal-10k-fy23', 'HALCYON SYSTEMS, INC.', 'HLCY', 'September 30, 2023');
  // The first quarter of fiscal 2024 ended in December 2023; its text states no fiscal label, only the span.
  const q1fy24 = fromText('hal-10q-2023-12', tenQ('HALCYON SYSTEMS, INC.', 'HLCY', 'December 30, 2023'), 'Revenue for the three months ended December 30, 2023 rose.');
  const q3fy23 = fromText('hal-10q-2023-06', tenQ('HALCYON SYSTEMS, INC.', 'HLCY', 'July 1, 2023'), 'Three months ended July 1, 2023 and nine months ended July 1, 2023.');

  it('profiles: the 10-K is fiscal 2023; the quarter ended in December 2023 is the first of fiscal 2024; the one with nine-month figures is the third', () => {
    expect(fy23.profile?.period).toMatchObject({ end: '2023-09-30', fiscalYear: 2023, fiscalQuarter: null });
    expect(q1fy24.profile?.period).toMatchObject({ end: '2023-12-30', fiscalYear: 2024, fiscalQuarter: 1, calendarYear: 2023, calendarQuarter: 4 });
    expect(q3fy23.profile?.period).toMatchObject({ end: '2023-07-01', fiscalYear: 2023, fiscalQuarter: 3 });
  });

  it('"fiscal 2023" is the year ended September 30, 2023; "Q1 fiscal 2024" the quarter ended in December 2023', () => {
    const dir = [fy23, q1fy24, q3fy23];
    expect(routeQuery('What was Halcyon’s revenue in fiscal 2023?', dir).docIds).toEqual(['hal-10k-fy23']);
    expect(routeQuery('Halcyon revenue in Q1 fiscal 2024', dir).docIds).toEqual(['hal-10q-2023-12']);
    expect(routeQuery('Halcyon revenue in the first quarter of fiscal 2024', dir).docIds).toEqual(['hal-10q-2023-12']);
  });

  it('a 10-Q that states no fiscal period borrows its company’s fiscal calendar from the 10-K', () => {
    const bare = fromText('hal-10q-bare', tenQ('HALCYON SYSTEMS, INC.', 'HLCY', 'December 30, 2023'));
    expect(bare.profile?.period.fiscalYear).toBeNull();
    expect(routeQuery('Halcyon revenue in Q1 FY2024', [fy23, bare]).docIds).toEqual(['hal-10q-bare']);
  });

  it('a year ended in January is labelled as the document labels it (fiscal 2022 ended January 28, 2023), else by the year it ends in', () => {
    const startYear = annual('ret-fy22', 'BRAMBLE STORES, INC.', 'BRMB', 'January 28, 2023', 'Our fiscal year 2022 ended January 28, 2023. Fiscal 2022 sales grew. In fiscal 2022 we opened stores.');
    expect(startYear.profile?.period.fiscalYear).toBe(2022);
    const endYear = annual('chip-fy23', 'VERDANT CHIPS CORPORATION', 'VRDC', 'January 29, 2023', 'Revenue for fiscal year 2023 was a record; fiscal year 2023 compared with fiscal year 2022.');
    expect(endYear.profile?.period.fiscalYear).toBe(2023);
    expect(routeQuery('Bramble Stores net sales in FY2022', [startYear]).docIds).toEqual(['ret-fy22']);
  });

  it('a quarter is also read as the n-th quarterly report filed in a calendar year (June year end: "Q1 2023" filed in January 2023)', () => {
    const juneYe = (end: string, fq: number, fy: number, cal: [number, number]): DocumentProfile => {
      const base = { organisations: [{ name: 'Quill Software Corporation', aliases: organisationAliases('Quill Software Corporation', ['QSC']) }], form: '10-Q', period: { end, fiscalYear: fy, fiscalQuarter: fq, calendarYear: cal[0], calendarQuarter: cal[1], edition: null } };
      return { ...base, label: profileLabel(base) };
    };
    expect(filedQuarter(juneYe('2022-12-31', 2, 2023, [2022, 4]))).toEqual({ year: 2023, quarter: 1 });
    expect(filedQuarter(juneYe('2023-03-31', 3, 2023, [2023, 1]))).toEqual({ year: 2023, quarter: 2 });
    expect(filedQuarter(juneYe('2023-09-30', 1, 2024, [2023, 3]))).toEqual({ year: 2023, quarter: 3 });
    const dir: DirectoryEntry[] = [
      { doc_id: 'q-sep22', title: 't', doc_type: '10-Q', profile: juneYe('2022-09-30', 1, 2023, [2022, 3]) },
      { doc_id: 'q-dec22', title: 't', doc_type: '10-Q', profile: juneYe('2022-12-31', 2, 2023, [2022, 4]) },
      { doc_id: 'q-mar23', title: 't', doc_type: '10-Q', profile: juneYe('2023-03-31', 3, 2023, [2023, 1]) },
    ];
    const s = routeQuery('Quill operating expenses in Q1 2023', dir);
    // Fiscal Q1 2023 and the first 10-Q filed in 2023 are both read; calendar Q1 2023 follows at a lower weight.
    expect(s.docIds.sort()).toEqual(['q-dec22', 'q-sep22']);
    expect(s.docWeights['q-mar23']).toBe(0.7);
    expect(s.ambiguousPeriod).toBe(true);
    // "fiscal" settles it.
    expect(routeQuery('Quill operating expenses in Q1 fiscal 2023', dir).docIds).toEqual(['q-sep22']);
  });
});

describe('a document whose profile has no period still competes', () => {
  const k22 = annual('fern-10k-22', 'FERNWOOD ENERGY CORPORATION', 'FRNW', 'December 31, 2022');
  // An 8-K whose cover names the registrant but no period.
  const eightK = fromText('fern-8k', ['FORM 8-K', 'CURRENT REPORT', 'Date of Report (Date of earliest event reported): May 3, 2023', 'FERNWOOD ENERGY CORPORATION', '(Exact name of registrant as specified in its charter)']);

  it('is never filtered out by a period check: in the branch beside the matching filing, and enough to keep a period from being "unmatched"', () => {
    expect(eightK.profile?.period.end).toBeNull();
    expect(eightK.profile?.organisations[0]?.name).toBe('Fernwood Energy Corporation');
    const s = routeQuery('Fernwood Energy revenue in FY2022', [k22, eightK]);
    expect(s.docIds).toEqual(['fern-10k-22', 'fern-8k']);
    expect(s.docWeights['fern-8k']).toBeGreaterThan(0.4);
    const later = routeQuery('Fernwood Energy revenue in Q1 2023', [k22, eightK]);
    expect(later.unmatched).toEqual([]);
    expect(later.docIds).toContain('fern-8k');
  });
});

describe('organisations named as people write them', () => {
  const verdant = annual('vrdc-10k', 'VERDANT CHIPS CORPORATION', 'VRDC', 'January 29, 2023');
  const river = annual('rvmt-10k', 'RIVERMART.COM, INC.', 'RVMT', 'December 31, 2022');
  const costly = annual('cost-10k', 'COSTLINE WHOLESALE CORPORATION', 'COST', 'August 31, 2023');

  it('a ticker in lower case ("vrdc", "rvmt"), unless it spells a common word ("cost of sales")', () => {
    expect(routeQuery('vrdc revenue fy2023', [verdant, river]).docIds).toEqual(['vrdc-10k']);
    expect(routeQuery('what did rvmt report as net sales?', [verdant, river]).docIds).toEqual(['rvmt-10k']);
    expect(routeQuery('What was the cost of sales?', [costly, river]).docIds).toEqual([]);
    expect(routeQuery('What was COST’s membership fee revenue?', [costly, river]).docIds).toEqual(['cost-10k']);
    expect(routeQuery('How did Costline grow?', [costly, river]).docIds).toEqual(['cost-10k']);
  });

  it('an abbreviation the document prints ("H&H"), written "HnH", "H and H" or "H & H"', () => {
    const hh = annual('hh-10k', 'HARLOW & HARLOW', 'HLW', 'December 31, 2022', 'Harlow & Harlow ("H&H" or the "Company") makes medical devices. H&H MedTech grew.');
    expect(hh.profile?.organisations[0]?.aliases).toEqual(expect.arrayContaining(['harlow & harlow', 'h&h']));
    for (const q of ['What drove HnH’s US sales growth?', 'H and H sales in FY2022', 'h&h sales', 'Harlow and Harlow revenue']) {
      expect(routeQuery(q, [hh, river]).docIds, q).toEqual(['hh-10k']);
    }
  });

  it('a brand printed above the cover and used in the text', () => {
    const lines = ['Lumora', ...(tenK('BRIGHTFIELD OPTICS HOLDINGS, INC.', 'BFOH', 'December 31, 2022')[0] as string[])];
    const doc = fromText('bfo-10k', lines, 'Lumora lenses sold well. Lumora stores opened. The Lumora brand grew.');
    expect(doc.profile?.organisations[0]?.aliases).toContain('lumora');
    expect(routeQuery("What were Lumora's net sales in FY2022?", [doc, river]).docIds).toEqual(['bfo-10k']);
  });

  it('"The … Company" is also named without "The" and its legal form, and by its leading words', () => {
    const doc = annual('lark-10k', 'THE LARKSPUR BOTTLING COMPANY', 'LBC', 'December 31, 2022');
    expect(routeQuery('Larkspur Bottling revenue FY2022', [doc, river]).docIds).toEqual(['lark-10k']);
    const mgm = annual('gala-10k', 'GALA RESORTS INTERNATIONAL', 'GALA', 'December 31, 2022');
    expect(routeQuery('Gala Resorts revenue FY2022', [mgm, river]).docIds).toEqual(['gala-10k']);
  });

  it('a letter-spaced text layer ("M ARLOW R ESORTS I NTERNATIONAL") still yields the organisation', () => {
    const orgs = findOrganisations(['FORM 10-K', 'M ARLOW R ESORTS I NTERNATIONAL', '(Exact name of registrant as specified in its charter)'], 'Marlow Resorts International operates resorts.');
    expect(orgs[0]?.name).toBe('Marlow Resorts International');
    expect(orgs[0]?.aliases).toEqual(expect.arrayContaining(['marlow resorts international', 'marlow resorts', 'marlow']));
    // As the layer may already read after a title-casing pass.
    expect(findOrganisations(['Marlow R Esorts I Nternational', '(Exact name of registrant as specified in its charter)'])[0]?.name).toBe('Marlow Resorts International');
    // Letters spaced one by one, read back with the document's own words.
    expect(repairLetterSpacing('R E S O R T S I N T E R N A T I O N A L', wordVocabulary('resorts international'))).toBe('RESORTS INTERNATIONAL');
    // A real one-letter word is left alone.
    expect(repairLetterSpacing('Plan A Shares', wordVocabulary('plan shares'))).toBe('Plan A Shares');
  });

  it('the cheap test before a repair passes every line a repair changes', () => {
    const vocabulary = wordVocabulary('marlow resorts international resorts plan shares');
    const lines = [
      'M ARLOW R ESORTS I NTERNATIONAL', 'R E S O R T S', 'Marlow R Esorts', '(R ESORTS)', 'É COLE N ATIONALE',
      'Plan A Shares', 'Marlow Resorts International', '10-K 2024', 'R2 D2 units', '', 'the a b c',
    ];
    for (const line of lines) {
      if (repairLetterSpacing(line, vocabulary) !== line) expect(mayBeLetterSpaced(line), line).toBe(true);
    }
    expect(lines.filter(mayBeLetterSpaced)).toEqual(['M ARLOW R ESORTS I NTERNATIONAL', 'R E S O R T S', 'Marlow R Esorts', '(R ESORTS)', 'É COLE N ATIONALE', 'Plan A Shares']);
    // A word after a lone capital stays out of the vocabulary, wherever it stands.
    expect([...wordVocabulary('R ESORTS and (I NTERNATIONAL) at X Y')]).toEqual(['r', 'and', 'i', 'at', 'x']);
  });

  it('alias matching: possessives, hyphens as spaces, capitals for two-letter symbols', () => {
    expect(mentionsAlias("Coca Cola's margin", 'coca-cola')).toBe(true);
    expect(mentionsAlias('the ge segment', 'ge')).toBe(false);
    expect(mentionsAlias('the GE segment', 'ge')).toBe(true);
    expect(mentionsAlias('Rates at Cost rose', 'cost')).toBe(true);
    expect(mentionsAlias('Cost of sales rose', 'cost')).toBe(false);
  });
});

/** A release as extraction reads one: headline, dateline with the issuer and its ticker, the quarter. */
const RELEASE = [
  'Verdant Chips Announces Financial Results for Third Quarter Fiscal 2024',
  'SANTA CLARA, Calif., Nov. 21, 2023 (GLOBE NEWSWIRE) -- Verdant Chips (NASDAQ: VRDC) today reported revenue for the third quarter ended October 29, 2023, of $18.12 billion.',
];

function hit(docId: string, n: number, score: number): HybridHit {
  return {
    chunk: {
      chunk_id: `00000000-0000-5000-8000-${String(n).padStart(12, '0')}`, doc_id: docId, version: 'a'.repeat(64), section: 's', section_path: 's', body: 'b', embedding_text: 'b',
      page_start: 1, page_end: 1, chunk_index: n, total_chunks: 20, token_count: 1, entities: [], valid_from: null, valid_to: null, doc_type: '10-Q', jurisdiction: 'US', lang: 'en',
      created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    },
    score, keywordScore: score, vectorScore: score, bm25: 1, cosine: 0.5,
  };
}

function storeOf(hits: HybridHit[]) {
  return { hybrid: async (q: HybridQuery): Promise<HybridHit[]> => hits.filter((h) => !q.filter || matchesFilter(q.filter, h.chunk)).slice(0, q.limit) };
}

describe('an earnings release beside its company’s 10-K', () => {
  const k = annual('vrdc-10k-fy24', 'VERDANT CHIPS CORPORATION', 'VRDC', 'January 28, 2024');
  const q3 = fromText('vrdc-10q-q3', tenQ('VERDANT CHIPS CORPORATION', 'VRDC', 'October 29, 2023'), 'Three months ended October 29, 2023; nine months ended October 29, 2023.');
  const release = fromText('vrdc-pr-q3', RELEASE, 'Revenue for the nine months ended October 29, 2023 grew.', 'Verdant Chips Announces Financial Results for Third Quarter Fiscal 2024');

  it('the release gets its issuer (with the ticker of its dateline) and its quarter', () => {
    expect(release.profile?.organisations[0]).toMatchObject({ name: 'Verdant Chips', aliases: expect.arrayContaining(['verdant chips', 'verdant', 'vrdc']) });
    expect(release.profile?.period).toMatchObject({ end: '2023-10-29', fiscalYear: 2024, fiscalQuarter: 3 });
    expect(routeQuery('Verdant revenue in the third quarter of fiscal 2024', [k, q3, release]).docIds.sort()).toEqual(['vrdc-10q-q3', 'vrdc-pr-q3']);
  });

  // The 10-K reads best on every passage; the release's passages rank below twelve of them.
  const hits = [...Array.from({ length: 12 }, (_, i) => hit('vrdc-10k-fy24', i, 0.9 - i / 100)), ...Array.from({ length: 4 }, (_, i) => hit('vrdc-pr-q3', 100 + i, 0.6 - i / 100))];

  it("stays in the top 10 for a question about the release's quarter", async () => {
    const { hits: out } = await routedHybrid({ store: storeOf(hits), documents: async () => [k, release] }, 'Verdant revenue in Q3 fiscal 2024', { text: 't', vector: [1], alpha: 0.5, limit: 20 });
    expect(out.slice(0, 10).map((h) => h.chunk.doc_id)).toContain('vrdc-pr-q3');
  });

  it('a release whose profile names no organisation is attributed by its title, and broad evidence keeps a place even without', async () => {
    const anonymous: DirectoryEntry = { doc_id: 'vrdc-pr-q3', title: 'Verdant Chips Announces Financial Results for Third Quarter Fiscal 2024', doc_type: 'unknown', profile: null };
    expect(routeQuery('Verdant revenue in Q3 fiscal 2024', [k, anonymous]).docIds).toContain('vrdc-pr-q3');
    const untitled: DirectoryEntry = { ...anonymous, title: 'press release' };
    // The release leads the broad search but is no named document: it keeps a place in the top 10.
    const broadFirst = [hit('vrdc-pr-q3', 200, 0.95), ...hits];
    const { hits: out } = await routedHybrid({ store: storeOf(broadFirst), documents: async () => [k, untitled] }, 'Verdant revenue in fiscal 2024', { text: 't', vector: [1], alpha: 0.5, limit: 20 });
    expect(out.slice(0, 10).map((h) => h.chunk.doc_id)).toContain('vrdc-pr-q3');
  });
});

describe('the date qualifier is the cited document’s own period', () => {
  it('one period, or each distinct one of the cited documents', () => {
    const a = annual('a', 'HALCYON SYSTEMS, INC.', 'HLCY', 'September 30, 2023').profile;
    const b = annual('b', 'HALCYON SYSTEMS, INC.', 'HLCY', 'September 30, 2022').profile;
    expect(citedPeriodQualifier([a, a], 'en')).toBe('for the period ended 2023-09-30 (Halcyon Systems, Inc. (HLCY) · 10-K · fiscal 2023)');
    expect(citedPeriodQualifier([a, b], 'en')).toBe('for the period ended 2023-09-30 (Halcyon Systems, Inc. (HLCY) · 10-K · fiscal 2023); for the period ended 2022-09-30 (Halcyon Systems, Inc. (HLCY) · 10-K · fiscal 2022)');
    expect(citedPeriodQualifier([null], 'en')).toBeNull();
    // An undated document cited beside a dated one is said as of today, in its place.
    expect(citedPeriodQualifier([null, a], 'en', 'as of 2026-11-29')).toBe('as of 2026-11-29; for the period ended 2023-09-30 (Halcyon Systems, Inc. (HLCY) · 10-K · fiscal 2023)');
    expect(citedPeriodQualifier([null, null], 'en', 'as of 2026-11-29')).toBeNull();
  });
});

describe('one-word names that are also words', () => {
  it('"target" names the company only capitalised inside a sentence, as an owner, or in capitals', () => {
    expect(mentionsAlias('What is the target leverage ratio?', 'target')).toBe(false);
    expect(mentionsAlias("Target's FY2022 revenue", 'target')).toBe(true);
    expect(mentionsAlias('How did Target grow?', 'target')).toBe(true);
    expect(mentionsAlias('Target leverage was reached.', 'target')).toBe(false);
    // A name that spells no common word matches in any case.
    expect(mentionsAlias('verdant revenue', 'verdant')).toBe(true);
  });
});

describe('releases and call transcripts are reports of their own kind', () => {
  it('an earnings release and a call transcript: their kind, issuer and quarter from the title', () => {
    const release = buildDocumentProfile(RELEASE.join('\n'), '');
    expect(release.form).toBe('earnings release');
    expect(release.label).toContain('period ended 2023-10-29');
    const call = buildDocumentProfile(['Quill Software Q3 FY2023 Earnings Call', 'Operator: Good afternoon and welcome.'].join('\n'), '');
    expect(call).toMatchObject({ form: 'transcript', organisations: [{ name: 'Quill Software' }], period: { fiscalYear: 2023, fiscalQuarter: 3, end: null } });
    const dir: DirectoryEntry[] = [
      { doc_id: 'call-q3', title: 'call', doc_type: 'transcript', profile: call },
      { doc_id: 'call-q2', title: 'call', doc_type: 'transcript', profile: buildDocumentProfile('Quill Software Q2 FY2023 Earnings Call', '') },
    ];
    expect(routeQuery('What did Quill say about churn on the Q3 FY2023 earnings call?', dir).docIds).toEqual(['call-q3']);
  });
});
