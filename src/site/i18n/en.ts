/**
 * Every English string of the pages for people, keyed by the contract's ids where a text stands for
 * one (verdicts, components, flags, cause kinds, …), so a new id without its text fails the type
 * check. The other catalogues are typed `Messages` (this catalogue's shape): a key missing from one,
 * or one too many, fails too, and test/site/i18n-catalogue.test.ts compares the keys at run time.
 *
 * Plain strings are text (Astro escapes them). Functions named `…Html` take pieces that are already
 * HTML (numbers from html.ts `num`, links) and return HTML; the caller escapes any text it passes.
 */
import type {
  AssuranceKind,
  AssuranceLevel,
  AssuredLevel,
  Boundary,
  CauseKind,
  MarketType,
  ScoreComponent,
  Severity,
  SnapshotKind,
  UpdateFrequency,
  Verdict,
} from '../../contract/vocabulary.js';
import type { FlagId } from '../../methodology/rules.js';
import { FLAG_CATALOGUE, SCORE_NAME } from '../../methodology/rules.js';
import { reasonDetail, type ScoreReason } from '../../methodology/score.js';
import { disclaimerFor } from '../../views/envelope.js';
import type { Cause } from '../../contract/changes.js';
import type { MethodologyResponse } from '../../contract/methodology.js';

const flagTexts = Object.fromEntries(
  FLAG_CATALOGUE.map((f) => [f.id, { label: f.label, raisedWhen: f.raised_when, sourceOf: f.source_of }]),
) as Record<FlagId, { label: string; raisedWhen: string; sourceOf: string }>;

export const en = {
  /** The language's own name, as the language switch shows it to a reader of the other language. */
  languageName: 'English',
  switchLabel: 'Read this page in English',
  site: {
    name: 'ESG disclosure credibility (Taiwan)',
    brandHtml: 'ESG disclosure credibility <span lang="zh-Hant">台灣</span>',
    demoPrefix: '[DEMO]',
    skip: 'Skip to content',
    demoBanner: 'Demo snapshot.',
    disclaimer: { demo: disclaimerFor({ kind: 'demo' }), production: disclaimerFor({ kind: 'production' }) } satisfies Record<SnapshotKind, string>,
    navLabel: 'Site',
    nav: {
      home: 'Home',
      ranking: 'Ranking',
      etf: 'ETFs',
      methodology: 'Methodology',
      sources: 'Sources',
      downloads: 'Downloads',
      research: 'For researchers',
      docs: 'API docs',
      keys: 'API keys',
    },
    footerHtml: (id: string, asof: string, version: string) => `Snapshot <code>${id}</code>, data as of ${asof}, methodology ${version}.`,
    footerSources: 'Sources and licences',
    footerApi: 'API',
    footerDownloads: 'Downloads',
  },
  verdict: { credible: 'Credible', decent: 'Decent', questionable: 'Questionable', poor: 'Poor' } satisfies Record<Verdict, string>,
  market: { listed: 'Listed (TWSE)', otc: 'OTC (TPEx)' } satisfies Record<MarketType, string>,
  assurance: { none: 'No assurance', limited: 'Limited assurance', reasonable: 'Reasonable assurance' } satisfies Record<AssuranceLevel, string>,
  /** A level as an adjective inside a sentence ("limited assurance of 2024"). */
  assuredLevel: { limited: 'limited', reasonable: 'reasonable' } satisfies Record<AssuredLevel, string>,
  assuranceKind: { cpa: 'CPA assurance', third_party: 'Third-party verification' } satisfies Record<AssuranceKind, string>,
  assuranceKindLong: {
    cpa: 'A CPA firm’s assurance under the FSC rules',
    third_party: 'A verifier’s statement only: no CPA assurance',
  } satisfies Record<AssuranceKind, string>,
  severity: { critical: 'Critical', warning: 'Warning', info: 'Info' } satisfies Record<Severity, string>,
  component: { disclosure: 'disclosure', assurance: 'assurance', compliance: 'compliance', consistency: 'consistency' } satisfies Record<
    ScoreComponent,
    string
  >,
  boundary: { parent: 'parent company only', consolidated: 'consolidated', other: 'as the company states it' } satisfies Record<Boundary, string>,
  frequency: {
    daily: 'daily',
    weekly: 'weekly',
    monthly: 'monthly',
    quarterly: 'quarterly',
    annual: 'annual',
    irregular: 'irregular',
  } satisfies Record<UpdateFrequency, string>,
  cause: {
    penalty_new: 'New penalty',
    penalty_aged_out: 'Penalty left its window',
    disclosure_new: 'New emissions disclosure',
    disclosure_changed: 'Emissions disclosure changed',
    assurance_changed: 'Assurance changed',
    carbon_fee_changed: 'Carbon-fee obligation changed',
    conduct_new: 'New disclosure breach or FSC sanction',
    timeliness: 'Disclosure aged past the reporting deadline',
    flag_raised: 'Flag raised',
    flag_cleared: 'Flag cleared',
    methodology_changed: 'Methodology changed',
    company_added: 'Entered the universe',
    company_removed: 'Left the universe',
  } satisfies Record<CauseKind, string>,
  /** A cause in words: English pages show the API's own detail. */
  causeDetail: (c: Cause) => c.detail,
  flag: flagTexts satisfies Record<FlagId, { label: string; raisedWhen: string; sourceOf: string }>,
  flagMeaning: (id: FlagId) => `Raised when ${flagTexts[id].raisedWhen}.`,
  /** Why a component scored what it did: English pages show the API's own detail. */
  reason: (r: ScoreReason) => reasonDetail(r),
  /**
   * The carbon-fee basis: English pages show the API's own sentence (`basisHtml`, escaped), its site's
   * figure as the page's number (`site.html`, a `<data>` the tests compare with `basis_tco2e`).
   */
  feeBasisHtml: (fee: { basisHtml: string; obligated: boolean; year: number | null }, site: { text: string; html: string } | null) =>
    site ? sentence(fee.basisHtml).replace(site.text, site.html) : sentence(fee.basisHtml),
  source: 'Source:',
  sourceHtml: (named: string, idLink: string) => `Source: ${named} (${idLink})`,
  breadcrumb: 'Breadcrumb',
  /**
   * A registry name as the page shows it. The registry writes each name in Chinese with an English
   * gloss in parentheses (`環境部 (Ministry of Environment)`): English pages show both.
   */
  dataName: (name: string) => name,
  /** A source's licence by its id; English pages show the registry's name. */
  licenceName: (_id: string, name: string) => name,
  /** A quarter as the data writes it (`2025Q3`). */
  quarter: (period: string) => period,
  tCO2e: 't CO2e',
  none: '—',
  pack: {
    heading: 'Evidence pack',
    introHtml: (max: number) =>
      `One zip for up to ${max} companies, for when you must show your sources: each company's summary, its facts ` +
      `with their sources and its history as JSON, a CSV of the summaries, the registry entries and file checksums ` +
      `of every source cited, the methodology, a citation and <code>SHA256SUMS</code>. Packs need an API key of the ` +
      `developer or commercial tier.`,
    tickers: 'Companies: codes separated by spaces or commas',
    key: 'API key',
    keyNote: 'Kept only in this tab’s session storage, and sent only with the pack request to this site.',
    submit: 'Download pack',
    curl: 'With curl:',
  },
  /**
   * What the scripts under /assets/ write into a page, as templates with `{name}` placeholders:
   * the build writes every language's into /assets/messages.js, and a script picks the page's.
   */
  script: {
    search: {
      empty: 'Type a name or a code.',
      loading: 'Loading the index…',
      none: 'No company matches.',
      many: '{n} matches; the first {limit}:',
      one: '1 match:',
      some: '{n} matches:',
    },
    pack: {
      noneChosen: 'None chosen yet.',
      chosen: '{n} chosen.',
      chosenTooMany: '{n} chosen: the most is {max}.',
      column: 'Pack',
      add: 'Add {ticker} to the evidence pack',
      chooseOne: 'Choose at least one company.',
      tooMany: 'A pack holds at most {max} companies; {n} are chosen.',
      noKey: 'Give your API key: packs need a developer or commercial key.',
      preparing: 'Preparing the pack…',
      refused: '{message} ({status} {code})',
      failed: 'The pack failed ({status}).',
      downloadedOne: 'Downloaded {name}: 1 company, {kb} KB.',
      downloaded: 'Downloaded {name}: {n} companies, {kb} KB.',
      network: 'The pack could not be fetched: the network failed.',
    },
    copy: { copy: 'Copy', copied: 'Copied', selected: 'Selected: press Ctrl+C' },
  },
  pager: { label: 'Pages', previous: '← Previous', next: 'Next →', page: (n: number) => `Page ${n}` },
  ranking: {
    all: 'Ranking',
    rank: 'Rank',
    code: 'Code',
    company: 'Company',
    score: 'Score',
    verdict: 'Verdict',
    industry: (name: string) => `Ranking: ${name}`,
    market: (text: string) => `Ranking: ${text}`,
    assurance: (text: string) => `Ranking: ${text}`,
    flag: (id: string) => `Ranking: companies flagged ${id}`,
    paged: (heading: string, page: number) => `${heading}, page ${page}`,
    noMatch: 'No company matches this filter.',
    rangeHtml: (first: string, last: string, total: string) => `Companies ${first}–${last} of ${total}, best score first (equal scores by code).`,
    sameAsJson: 'Same list as JSON:',
    caption: (heading: string, first: number, last: number) => `${heading}: ranks ${first}–${last}`,
  },
  filters: {
    summary: 'Filter the ranking',
    byIndustry: 'By industry',
    industry: 'Industry',
    byMarket: 'By market',
    market: 'Market',
    byAssurance: 'By assurance level',
    assurance: 'Assurance',
    byFlag: 'By flag',
    flag: 'Flag',
  },
  histogram: {
    summary: (total: string, buckets: string) => `Histogram of ${total} scores: ${buckets}`,
    table: (total: string) => `Scores of all ${total} companies, by 10-point bucket (table)`,
    score: 'Score',
    companies: 'Companies',
  },
  home: {
    title: 'Home',
    description: 'How credible are the ESG and carbon disclosures of Taiwan-listed companies? Scores, flags and sources.',
    heading: 'How credible are Taiwan-listed companies’ ESG disclosures?',
    lede:
      'Every listed and OTC company scored 0–100 on its carbon disclosure, the assurance of its sustainability ' +
      'report, its environmental penalties and the consistency of what it says with government records. Every fact ' +
      'links to the government or exchange dataset it came from.',
    searchHeading: 'Find a company',
    searchLabel: 'Company name (Chinese) or code',
    searchPlaceholder: 'e.g. 台灣水泥 or 1101',
    searchHint: 'Type a name or a code. Without JavaScript, browse the industries below.',
    factsHeading: 'This snapshot',
    snapshot: 'Snapshot',
    kind: { demo: 'demo', production: 'production' } satisfies Record<SnapshotKind, string>,
    asof: 'Data as of',
    methodology: 'Methodology',
    companies: 'Companies',
    penalties: 'Penalty records',
    etfs: 'ETFs',
    sources: 'Sources',
    download: 'Download the whole snapshot',
    downloadFormats: '(CSV, SQLite, Data Package)',
    useApi: 'Use the API',
    apiIndex: 'API index (JSON)',
    spreadHeading: 'How scores spread',
    topHeading: 'Highest scores',
    topCaption: 'The top of the ranking',
    whole: 'Whole ranking',
    bottomHeading: 'Lowest scores',
    bottomCaption: 'The bottom of the ranking',
    browseHeading: 'Browse every company',
    browse: 'Each industry, market, assurance level and flag has its own ranking pages.',
  },
  company: {
    description: (name: string, ticker: string, score: number, verdict: string) => `${name} ${ticker}: credibility score ${score}, ${verdict}.`,
    feeTag: 'Owes the carbon fee',
    cbamTag: 'CBAM-exposed',
    scoreHeading: 'Credibility score',
    outOf: '/ 100',
    rankHtml: (rank: string, percentile: string) => `Rank ${rank} in this snapshot; higher than ${percentile} of companies.`,
    percentSuffix: ' %',
    howComputed: 'How the score is computed',
    breakdownSummary: (score: number, parts: string) => `Score ${score} of 100: ${parts}`,
    breakdownPart: (component: string, points: number, max: number) => `${component} ${points} of ${max}`,
    breakdownItemHtml: (points: string, max: string) => `${points} of ${max} points.`,
    historyHeading: 'History',
    firstSnapshot: (ticker: string) => `This is the first snapshot that holds ${ticker}: its history starts here.`,
    historyIntro: (shown: number, total: number, from: string) =>
      `Its score in ${shown === total ? `the ${total}` : `the latest ${shown} of the ${total}`} published snapshots that held it, from ${from} to this one.`,
    historyJsonHtml: (href: string) =>
      `The whole history as JSON: <a href="${href}">history</a>, one entry per snapshot with its score breakdown and flags.`,
    flagsHeading: (n: number) => `Flags (${n})`,
    noFlags: 'No greenwashing-risk flag is raised.',
    penaltiesHeading: (n: number) => `Environmental penalties (${n})`,
    noPenalties: 'No penalty on record.',
    penaltiesCaption: 'Penalties, newest first; each links to the original government record',
    date: 'Date',
    agency: 'Agency',
    fine: 'Fine',
    what: 'What',
    record: 'Record',
    serious: 'serious',
    conductHeading: (n: number) => `Disclosure conduct (${n})`,
    noConduct: 'No disclosure breach or FSC sanction on record.',
    conductCaption: 'Exchange penalties for disclosure breaches and FSC sanctions, newest first; each names its dataset',
    conductKind: { breach: 'Disclosure breach (exchange penalty)', sanction: 'FSC sanction' },
    conductRule: 'Rule',
    conductFine: 'Fine or decision',
    noRule: 'none named',
    noFine: 'none',
    carbonHeading: 'Carbon disclosure',
    noDisclosure: 'No emissions disclosure on record.',
    reportingYear: 'Reporting year',
    scope: (n: 1 | 2 | 3) => `Scope ${n}`,
    notDisclosed: 'not disclosed',
    verified: ' (verified)',
    boundaryNotStated: 'not stated (N/A)',
    boundary: 'Boundary',
    fileDate: 'Exchange file dated',
    feeHeading: 'Carbon fee',
    obligated: 'Obligated to pay the carbon fee.',
    notObligated: 'Not obligated to pay the carbon fee.',
    thresholdHtml: (n: string) => `Threshold: ${n} t CO2e a year.`,
    assuranceHeading: 'Assurance of the sustainability report',
    noAssurance: 'No assured sustainability report on record.',
    assuredByHtml: (kind: string, provider: string, year: string) => `${kind} by ${provider} of the report for ${year}.`,
    kind: 'Kind',
    level: 'Level',
    standard: 'Standard',
    alsoVerified: 'Also verified by',
    thirdPartyLevel: ' (a verifier’s statement counts as limited unless its standard states a high or reasonable level)',
    noStandard: 'not stated in the filing',
    jsonHeading: 'Data and citation',
    jsonHtml: (summary: string, canonical: string, history: string) =>
      `The same facts as JSON: <a href="${summary}">summary</a> · <a href="${canonical}">canonical view with sources</a> · <a href="${history}">history</a>.`,
    citeAs: 'Cite as:',
  },
  history: {
    summary: (n: number, entries: string) => `Credibility score in ${n === 1 ? 'one snapshot' : `${n} snapshots, oldest first`}: ${entries}`,
    tableSummary: (n: number, total: number) =>
      `The history as a table (${n === 1 ? 'one snapshot' : n === total ? `${n} snapshots` : `the latest ${n} of ${total} snapshots`})`,
    caption: 'Score, verdict and rank in each snapshot, oldest first',
    snapshot: 'Snapshot',
    score: 'Score',
    verdict: 'Verdict',
    rank: 'Rank',
    dataAsOf: 'data as of',
  },
  changes: {
    heading: 'Latest changes',
    first: 'This is the first published snapshot: there is no earlier one to compare with.',
    none: (from: string) =>
      `No change since snapshot ${from}: the same score, verdict, flags and facts (only the rank can move, as other companies do).`,
    newHtml: (from: string, ticker: string, scored: string | null) =>
      `New since snapshot ${from}, which did not hold ${ticker}${scored === null ? '' : `: scored ${scored} now`}.`,
    moveHtml: (from: string, before: string, after: string, delta: string, verdicts: [string, string] | null) =>
      `Since snapshot ${from}: score ${before} → ${after} (${delta} points)${verdicts ? `, verdict ${verdicts[0]} → ${verdicts[1]}` : ''}.`,
    noPoints: 'no points',
    asJsonHtml: (changes: string, from: string | null, ticker: string, page: { href: string; n: number } | null) =>
      `As JSON: ${from === null ? `<a href="${changes}">the changes</a> (none yet)` : `<a href="${changes}">the changes since ${from}</a>`}` +
      `${page ? `, ${ticker} on <a href="${page.href}">page ${page.n}</a>` : ''}.`,
  },
  etfList: {
    title: 'ESG ETFs',
    intro: 'Each ETF rated by the scores of its holdings. As JSON:',
    holdings: (n: number) => `(${n} holdings)`,
  },
  etf: {
    holdings: 'Holdings',
    holdingsListedHtml: (n: string, period: string, asof: string) => `${n} listed for ${period} (as of ${asof})`,
    listedWeight: 'Listed weight',
    ofNetAssetsHtml: (w: string) => `${w} of net assets`,
    covered: 'Covered by this snapshot',
    average: 'Average score of covered holdings',
    lowest: 'Lowest score',
    assured: 'Assured holdings',
    cutOffHtml: (min: string, total: number, listed: string) =>
      `Only holdings of ${min} of net assets or more are published, so the ` +
      `${total === 1 ? 'holding below covers' : 'holdings below cover'} ${listed} of the fund, and the scores above ` +
      `describe that part only.`,
    everyHolding: (listed: string) => `Every holding is published; the listed weights add up to ${listed} of net assets.`,
    holdingsFrom: 'Holdings from',
    asJson: 'As JSON:',
    caption: (period: string) => `Holdings for ${period}, as published (weight: share of net assets)`,
    code: 'Code',
    name: 'Name',
    weight: 'Weight',
    score: 'Score',
    verdict: 'Verdict',
    notCovered: 'not covered',
    notCompanies: (n: string, count: number) => `${n} of the holdings ${count === 1 ? 'is not a company' : 'are not companies'} of this snapshot.`,
  },
  sources: {
    /**
     * A source's description: the registry's own (English) here; another language's by source_id, or
     * undefined where it has none (a source added without one: the page shows the English, marked so).
     */
    description: (_sourceId: string, registry: string): string | undefined => registry,
    title: 'Sources',
    intro: 'Every fact on this site names one of these datasets. As JSON:',
    government: 'government',
    nonGovernment: 'non-government',
    updated: (f: string) => `updated ${f}`,
    owner: 'Owner',
    licence: 'Licence',
    homepage: 'Homepage',
    records: 'Records in this snapshot',
    retrieved: 'Retrieved',
    publisherDate: 'Publisher’s date',
    publisherDateNone: 'not stated in the answers',
    publisherDateOld: (days: number) => ` — ${days} days before it was retrieved: the publisher served an old answer as current`,
    carried: 'Carried forward',
    carriedText: (attempted: string, reason: string, retrieved: string) =>
      `The publisher’s latest answer (asked ${attempted}) gave nothing usable: ${reason}. This snapshot uses its previous good answers, retrieved ${retrieved}.`,
  },
  downloads: {
    title: 'Downloads',
    introHtml: (json: string) =>
      `Each snapshot as files: one CSV per table, a Data Package (<code>datapackage.json</code>), the SQLite ` +
      `database, a citation file, an archive of the JSON tree and <code>SHA256SUMS</code>. Published snapshots never ` +
      `change. As JSON: ${json}`,
    foldersHtml: (guide: string) =>
      `Each snapshot's folder has a page of its own listing its files, from which one <code>wget</code> command ` +
      `fetches the whole folder. How to verify the files and open them in <code>sqlite3</code>, Datasette, DuckDB, ` +
      `pandas or R, follow a company across snapshots and cite a score: the <a href="${guide}">researchers’ ` +
      `guide</a>.`,
    snapshot: (id: string) => `Snapshot ${id}`,
    current: ' (current)',
    kind: { demo: 'Demo (fictional) data', production: 'Production data' } satisfies Record<SnapshotKind, string>,
    facts: (asof: string, published: string, version: string, companies: string, penalties: string) =>
      `, as of ${asof}, published ${published}, methodology ${version}: ${companies} companies, ${penalties} penalties.`,
    folder: 'Folder:',
    filesCaption: (id: string) => `Files of snapshot ${id}`,
    file: 'File',
    type: 'Type',
    bytes: 'Bytes',
    sha256: 'SHA-256',
  },
  folder: {
    title: (id: string) => `Snapshot ${id}: download folder`,
    never: 'The files of a published snapshot never change.',
    fetchHeading: 'Fetch the whole folder',
    fetchHtml: (id: string) =>
      `One command downloads every file below into a folder named <code>${id}</code>; the second checks each against <code>SHA256SUMS</code>.`,
    guideHtml: (guide: string, downloads: string, json: string) =>
      `What each file holds, and how to open it in <code>sqlite3</code>, DuckDB, pandas or R: the ` +
      `<a href="${guide}">researchers’ guide</a>. Every snapshot: <a href="${downloads}">Downloads</a>; as JSON: ${json}.`,
    filesHeading: 'Files',
  },
  docs: {
    title: 'API reference',
    introHtml: (openapi: string) =>
      `A read-only JSON API, open to everyone (CORS), versioned under <code>/api/v1</code>. The machine-readable description: ${openapi} (OpenAPI 3.1). Every body names its snapshot and methodology.`,
    opsHeading: 'Operations and examples',
    /** An operation's summary, by its id (src/contract/routes.ts): English pages show the table's own. */
    operation: (_id: string, summary: string) => summary,
    copy: 'Copy',
    refHeading: 'Interactive reference',
    noScriptHtml: (openapi: string) =>
      `The interactive reference needs JavaScript; the list above and <a href="${openapi}">the OpenAPI document</a> say the same.`,
    refNote: '',
  },
  research: {
    description: 'How to list, download, verify, open, follow and cite the snapshots: sqlite3, Datasette, DuckDB, pandas, R.',
  },
  keys: {
    title: 'API keys',
    description: 'Ask for a developer or academic API key with your e-mail address; see its usage, rotate or revoke it from a mailed link.',
    introHtml: (docs: string) =>
      `Pages and the JSON files of the API need no key. Computed calls (a query string or a POST) are counted per ` +
      `network address on the free tier; a key raises the limits (<a href="${docs}">API docs</a>). Send it as the ` +
      `<code>X-API-Key</code> header.`,
    tiersHeading: 'What each tier allows',
    tiersCaption: 'Calls per tier (commercial keys come from the operator)',
    tierColumn: 'Tier',
    bucketNames: {
      'calls/day': 'Calls a day',
      'calls/min': 'Calls a minute',
      'batch/day': 'Batch calls a day',
      'csv/day': 'CSV downloads a day',
      'packs/day': 'Evidence packs a day',
    },
    unlimited: 'unlimited',
    none: 'none',
    tierNames: { free: 'Free (no key)', academic: 'Academic', developer: 'Developer', commercial: 'Commercial' },
    askHeading: 'Ask for a key',
    askText: 'We mail a link to your address; following it shows your key once. No password: the address is how you get back to your key.',
    tierLegend: 'Tier',
    tierDeveloper: 'Developer: issued as soon as you confirm your address.',
    tierAcademic:
      "Academic: after you confirm, the operator approves it (your address's domain helps them judge), then we mail you a link to collect it.",
    emailLabel: 'E-mail address',
    useLabel: 'What you will use it for (one line)',
    ask: 'Mail me the link',
    manageHeading: 'Your key: usage, rotate, revoke',
    manageText: 'We mail a link to the address your key was issued to. It opens a page with its usage and buttons to rotate or revoke it.',
    manage: 'Mail me a link to my keys',
    limitsText: (perAddress: number, perEmail: number, hours: number) =>
      `At most ${perEmail} mails a day to one e-mail address, and mails to at most ${perAddress} addresses from one network address; each link works once, for ${hours} hours.`,
    noMailTitle: 'Keys come from the operator',
    operatorHtml:
      'This server does not send e-mail, so it cannot give keys from this page. Its operator makes them: ' +
      '<code>npm run keys -- create --tier developer --owner "you@example.org"</code>, and hands you the key. ' +
      'Ask whoever runs this server.',
    sentTitle: 'Check your mail',
    sentTextHtml: (email: string) => `We sent a link to ${email}. It works once, for 24 hours. If nothing arrives, look in your spam folder.`,
    manageSentTextHtml: (email: string) =>
      `A mail is on its way to ${email}: a link to manage its keys if it holds any (it works once, for 24 hours), or else how to get one.`,
    limitTitle: 'Too many requests today',
    limitAddress: 'This network address has had mail sent to as many e-mail addresses today as we allow. Please try again tomorrow.',
    limitEmail: 'This e-mail address has been sent as many mails today as we allow. Please try again tomorrow.',
    badFormTitle: 'Please check the form',
    badEmail: 'That is not an e-mail address we can send to.',
    badEmailControl: 'That e-mail address holds a control or invisible character: please type it again.',
    formProblem: {
      tooManyFields: 'The form was sent with more fields than any of ours has (at most 1,000 are read): please send it from the page.',
      tooLarge: 'The form was larger than any of ours (4 KB at most): please send it from the page.',
      unreadable: 'The form could not be read: please send it from the page.',
    },
    crossSiteTitle: 'Sent from another site',
    crossSiteText:
      'This form was sent from another web site, so we did nothing with it. If you meant to send it, open our page and send it from there.',
    badUse: `Say in one line (at most 300 characters) what you will use the key for.`,
    badTier: 'Choose developer or academic.',
    mailFailedTitle: 'The mail could not be sent',
    mailFailed: 'Our mail server did not take the message. Please try again later.',
    back: 'Back to the keys page',
    linkInvalidTitle: 'This link no longer works',
    linkWhy: { unknown: 'We do not know this link.', expired: 'It has expired.', used: 'It has already been used: each link works once.' },
    askAgain: 'Ask for a new link on the keys page.',
    linkTitle: { confirm: 'Confirm your request', collect: 'Collect your key', manage: 'Your keys', act: 'Your keys' },
    linkText: 'This link works once. Press the button to go on (opening the link alone does nothing, so a mail scanner cannot use it up).',
    linkButton: { confirm: 'Confirm and continue', collect: 'Show my key', manage: 'Show my keys', act: 'Continue' },
    keyTitle: 'Your API key',
    keyOnce: 'It is shown only now: we keep only its SHA-256. Copy it somewhere safe.',
    keyLabel: 'Key',
    keyUseHtml: (curl: string) => `Use it like this: <code>${curl}</code>`,
    pendingTitle: 'Request confirmed',
    pendingText: 'Academic keys are approved by the operator. When yours is, we mail you a link to collect it.',
    manageTitle: 'Your keys',
    noKeys: 'No live key is held by this address.',
    keyHeading: (id: string, tier: string) => `Key ${id} (${tier})`,
    createdAt: (date: string) => `Issued ${date}.`,
    usageCaption: 'Usage',
    bucket: 'Quota',
    limit: 'Limit',
    used: 'Used',
    remaining: 'Remaining',
    resets: 'Resets',
    unknownUsage: 'unknown',
    rotate: 'Rotate: a new key, this one stops',
    revoke: 'Revoke this key',
    buttonsExpire: 'These buttons work for 15 minutes; one of them, once.',
    rotatedTitle: 'Your new API key',
    rotatedText: (id: string) => `Key ${id} is revoked: a call with it is refused from now on.`,
    revokedTitle: 'Key revoked',
    revokedText: (id: string) => `Key ${id} is revoked: a call with it is refused from now on.`,
    revokeAskTitle: (id: string) => `Revoke key ${id}?`,
    revokeAskText: (id: string, assistants: number) =>
      `From the moment you press the button, every call with key ${id} is refused. It cannot be undone: you would ask for a new key.` +
      (assistants === 0
        ? ''
        : assistants === 1
          ? ' The assistant connected with it is disconnected.'
          : ` The ${assistants} assistants connected with it are disconnected.`),
    revokeYes: 'Yes, revoke the key',
    revokeNo: 'No, back to my keys',
    keyNotLiveTitle: 'This key is not live',
    keyNotLive: 'It was revoked, or this server never issued it.',
    connectedHeading: 'Assistants connected with this key',
    connectedSince: (client: string, date: string) => `${client}, since ${date}`,
    disconnect: 'Disconnect',
    disconnected: (client: string) => `${client} is disconnected: its tokens are refused from now on.`,
    noSuchKey: 'This address holds no live key with that id.',
    mail: {
      confirm: {
        subject: 'Confirm your request for an API key',
        text: (url: string) =>
          `Someone, probably you, asked for an API key of the ESG disclosure credibility service with this ` +
          `address.\n\nTo confirm, open this link and press the button (it works once, for 24 hours):\n\n${url}\n\nIf it ` +
          `was not you, ignore this mail: nothing happens without the button.\n`,
      },
      collect: {
        subject: 'Your academic API key is approved',
        text: (url: string) =>
          `The operator approved your request for an academic API key.\n\nOpen this link and press the button to see it, once (the link works once, for 7 days):\n\n${url}\n`,
      },
      manage: {
        subject: 'Your API keys',
        text: (url: string) =>
          `Open this link and press the button to see your keys' usage, rotate or revoke them (it works once, for 24 hours):\n\n${url}\n\nIf it was not you, ignore this mail.\n`,
      },
      noKeys: {
        subject: 'Your API keys',
        text: (url: string) =>
          `Someone, probably you, asked for a link to the API keys of this address, but it holds none. ` +
          `To get one, ask on the keys page:\n\n${url}\n\nIf it was not you, ignore this mail.\n`,
      },
    },
  },
  oauth: {
    signInTitle: 'Sign in to connect an assistant',
    signInTextHtml: (client: string, origin: string) =>
      `<strong>${client}</strong> asks to call this service's MCP tools with one of your API keys. When you agree, ` +
      `its calls count against that key's quota, and the code that connects it is sent to <code>${origin}</code>.`,
    signInHow: 'Enter the address your keys are held under: we mail you a link that opens the page where you choose the key, or refuse. No password.',
    emailLabel: 'E-mail address',
    signIn: 'Mail me the link',
    noKeyHtml: (keys: string) => `No key yet? <a href="${keys}">Ask for one</a> first, then connect the assistant again.`,
    sentTitle: 'Check your mail',
    sentTextHtml: (email: string, minutes: number) =>
      `We sent a link to ${email}. Open it within ${minutes} minutes to choose the key, then your assistant is connected.`,
    consentTitle: 'Connect an assistant',
    consentTextHtml: (client: string, origin: string) =>
      `<strong>${client}</strong> will call the MCP tools with the key you choose: the code that connects it is sent to ` +
      `<code>${origin}</code>. If that is not where your assistant runs, refuse. Its calls count against that key's quota. ` +
      `Revoking the key (on the keys page) disconnects it.`,
    loopbackWarningHtml: (client: string, origin: string) =>
      `<strong>Be sure this is yours.</strong> The code is sent to <code>${origin}</code>, an address on the computer ` +
      `where the sign-in began (localhost), not a website: any program running there could be listening at it, whatever ` +
      `name it gives. Go on only if you yourself just started connecting <strong>${client}</strong> on that computer.`,
    keyLegend: 'Key the assistant may use',
    keyOption: (id: string, tier: string) => `Key ${id} (${tier})`,
    allow: 'Allow',
    deny: 'Refuse',
    noKeysHtml: (keys: string) => `This address holds no live key. <a href="${keys}">Ask for one</a>, then connect the assistant again.`,
    requestGoneTitle: 'This sign-in no longer works',
    requestWhy: {
      unknown: 'We do not know this sign-in.',
      expired: 'It took longer than we wait: start again from your assistant.',
      used: 'It has already been answered.',
    },
    badEmail: 'That is not an e-mail address we can send to.',
    badRequestTitle: 'This sign-in request is not valid',
    badRequest:
      'The assistant that sent you here made a request we cannot answer, so nothing was sent back to it. ' +
      'Start again from the assistant; if this page comes back, tell its maker what it says below.',
    mail: {
      subject: 'Connect an assistant to the ESG API',
      text: (url: string, client: string, sentTo: string, minutes: number, loopback: boolean) =>
        `An application calling itself "${client}" asked to use one of your API keys of the ESG disclosure credibility ` +
        `service.\n\nOpen this link to choose the key, or refuse (it works once, for ${minutes} minutes):\n\n${url}\n\n` +
        `If you agree, the code that connects the application is sent to ${sentTo}. If it was not you, or that is not ` +
        `where your assistant runs, ignore this mail: nothing is connected without your choice.\n` +
        (loopback
          ? `\nBe sure this is yours: ${sentTo} is an address on the computer where the sign-in began (localhost), not a ` +
            `website. Any program running there could be listening at it, whatever name it gives. Allow only if you ` +
            `yourself just started connecting the application on that computer.\n`
          : ''),
    },
  },
  notFound: {
    title: 'Page not found',
    textHtml: (home: string, ranking: string) =>
      `There is no page at this address. <a href="${home}">Search for a company</a> or browse <a href="${ranking}">the ranking</a>.`,
  },
  methodology: {
    title: 'Methodology',
    heading: (name: string, version: string) => `${name}, methodology ${version}`,
    scoreName: SCORE_NAME,
    intro: 'A score from 0 to 100, the sum of four components. As JSON:',
    deadlineHeading: 'Reporting deadline',
    deadline: (e: string) => `${e}. Timeliness, GF-F01 and GF-D01 compare the latest reporting year with E(D).`,
    componentsHeading: 'Components',
    componentHeading: (name: string, max: number) => `${name} (up to ${max} points)`,
    verdictsHeading: 'Verdicts',
    verdictsCaption: 'Verdict by score',
    from: 'From',
    to: 'To',
    rankLine: (rank: string, percentile: string) => `Rank: ${rank}. Percentile: ${percentile}.`,
    flagsHeading: 'Flags',
    flagLine: (raisedWhen: string, sourceOf: string) => `Raised when ${raisedWhen}. Its source is ${sourceOf}.`,
    flagCompanies: 'Companies with this flag',
    definitionsHeading: 'Definitions',
    feeHeading: 'Carbon fee',
    etfHeading: 'Which ETFs are rated',
    examplesHeading: 'Worked examples from this snapshot',
    examplesIntro: 'The best-ranked company of each verdict, and how its score adds up.',
    examplePoints: (score: number) => `: ${score} points, `,
    exampleCaption: (ticker: string) => `Score of ${ticker} by component`,
    component: 'Component',
    points: 'Points',
    why: 'Why',
    total: 'Total',
    citeAs: 'Cite as:',
    glossaryHeading: 'Terms in English and Chinese',
    glossaryIntro: 'The words the pages use, as the publishers of the data use them (the Chinese pages use the right-hand column).',
    glossaryCaption: 'Glossary',
    term: 'English',
    termZh: '中文',
    /** The methodology's paragraphs: English pages show the /methodology body's own. */
    texts: {
      definitions: (m: MethodologyResponse): MethodologyResponse['definitions'] => m.definitions,
      rules: (m: MethodologyResponse): Record<ScoreComponent, string[]> =>
        Object.fromEntries(m.components.map((c) => [c.component, c.rules])) as Record<ScoreComponent, string[]>,
      rank: (m: MethodologyResponse) => m.ranking.rank,
      percentile: (m: MethodologyResponse) => m.ranking.percentile,
      feeRule: (m: MethodologyResponse) => `A company is ${m.carbon_fee.rule}.`,
      legalBasis: (m: MethodologyResponse) => m.carbon_fee.legal_basis,
      etfRule: (m: MethodologyResponse) => m.esg_etfs.rule,
    },
  },
};

/** A clause from the data (`no site of this company …`) as a sentence of its own: capital first letter, full stop. */
export function sentence(clause: string): string {
  const s = clause.trim();
  return s === '' ? '' : `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;
}

/** The shape every language's catalogue has. */
export type Messages = typeof en;
