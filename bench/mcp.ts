import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { KeyStore } from '../server/access/key-store.js';
import { median, medianRatio, type LoadRequest, type LoadResult } from './load.js';
import { paced, saturated } from './paced.js';
import { cpuMs, startShim, startShimOf, type Running } from './servers.js';

/**
 * MCP company lookups (`tools/call get_company`) at each protocol revision /mcp serves, and the
 * speed targets of the 2026-07-28 endpoint (`npm run bench -- --only mcp`, and once in a whole run):
 * at MCP_RATE calls a second, p99 < 20 ms at 2026-07-28, and at 2025-11-25 no worse than the code
 * before (`--rev`), as ratios measured in one run.
 */

/** MCP tool calls a second in the lookup load. */
export const MCP_RATE = 200;

/** The protocol revisions /mcp serves (docs/mcp.md): the stateless one, and the last with initialize. */
export const MCP_REVISIONS = ['2026-07-28', '2025-11-25'] as const;
export type McpRevision = (typeof MCP_REVISIONS)[number];

/**
 * An MCP company lookup: POST /mcp with one tools/call of get_company, a different company each, as
 * a client of `revision` sends it. At 2026-07-28 each request is whole in itself: its `_meta` names
 * the protocol version, the client and its capabilities, and the Mcp-Method and Mcp-Name headers
 * repeat the method and the tool (without them the answer is a quick 400, which a load would
 * count as fast). At 2025-11-25 the version header alone: this server is stateless, so a client
 * sends no initialize before its calls.
 */
export function mcpLookups(companyRequests: LoadRequest[], revision: McpRevision): LoadRequest[] {
  return companyRequests.map((r, i) => {
    const params = { name: 'get_company', arguments: { ticker: r.path.split('/').pop() } };
    const stateless = revision === '2026-07-28';
    return {
      method: 'POST',
      path: '/mcp',
      headers: {
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': revision,
        ...(stateless && { 'mcp-method': 'tools/call', 'mcp-name': params.name }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: stateless
          ? {
              ...params,
              _meta: {
                [PROTOCOL_VERSION_META_KEY]: revision,
                [CLIENT_INFO_META_KEY]: { name: 'esg-bench', version: '1.0.0' },
                [CLIENT_CAPABILITIES_META_KEY]: {},
              },
            }
          : params,
      }),
    };
  });
}

/**
 * Sends each request once and reads its answer: HTTP 200 and a JSON-RPC result that is no tool
 * error (a refused request is fast, and would pass for a quick lookup). The first failure, said, or null.
 */
export async function failedAnswer(base: string, requests: LoadRequest[]): Promise<string | null> {
  for (const r of requests) {
    const res = await fetch(`${base}${r.path}`, { method: r.method, headers: { 'content-type': 'application/json', ...r.headers }, body: r.body });
    const text = await res.text();
    // A JSON answer, or an event stream whose last data line is the answer.
    const json = /text\/event-stream/.test(res.headers.get('content-type') ?? '')
      ? (text
          .match(/^data: ?(.*)$/gm)
          ?.pop()
          ?.replace(/^data: ?/, '') ?? '')
      : text;
    const message = parsed(json);
    if (res.status !== 200 || !message?.result || message.error !== undefined || message.result.isError === true)
      return `${r.body ?? r.path}: HTTP ${res.status}, ${text.slice(0, 300)}`;
  }
  return null;
}

/** A JSON-RPC answer, or null when the text is not JSON. */
function parsed(text: string): { result?: { isError?: boolean }; error?: unknown } | null {
  try {
    return JSON.parse(text) as { result?: { isError?: boolean }; error?: unknown } | null;
  } catch {
    return null;
  }
}

/** The same, thrown. */
export async function checkAnswers(base: string, requests: LoadRequest[], what: string): Promise<void> {
  const failed = await failedAnswer(base, requests);
  if (failed) throw new Error(`${what}: a lookup was not answered with a result: ${failed}`);
}

/** An MCP lookup load paced at a fixed rate at one protocol revision (absent in runs before both were measured: 2025-06-18). */
export type McpLookup = { rate: number; revision?: string } & LoadResult;

/** The targets: p99 at 2026-07-28, and at 2025-11-25 this tree's ÷ the code before it. */
export const MCP_TARGETS = {
  p99Ms: 20,
  /** "No worse than today": a difference under 10 % is this machine's noise (bench/results.md). */
  noWorse: 1.1,
};

export interface McpRevisionFigures {
  measuredAt: string;
  companies: number;
  rate: number;
  seconds: number;
  /** The machine's load average over the last minute when the stage began (it is shared), and its cores. */
  loadAverage: number;
  cores: number;
  /** The earlier revision measured at 2025-11-25; `ownSnapshot`: why it served a snapshot its own code built (null: this tree's). */
  against?: { rev: string; ownSnapshot: string | null };
  /**
   * Per case: each round's paced run, and the shim's CPU per call at saturation (µs, from /proc) right
   * after it. `at` is 'here' (this tree) or the earlier revision's name.
   */
  cases: { revision: McpRevision; at: string; rounds: LoadResult[]; cpuUs: number[] }[];
}

/** A revision's shim, from its own checkout (bench/checkout.ts). */
export interface EarlierShim {
  rev: string;
  tree: string;
  /** Where that revision's own code built the same universe, published (its `current`): called when it cannot serve this tree's snapshot. */
  buildOwn: () => string;
}

/**
 * This tree's shim as `npm start` runs it, metered (a commercial key whose quotas are never spent),
 * and, with `earlier`, that revision's shim on the same snapshot and keys. Each lookup is checked
 * once; then, in rounds (order reversed every other round, so a slow spell of the shared machine
 * falls on every case): each case paced at `rate` for `seconds`, then saturated (10 connections)
 * to read the shim's CPU per call, steadier than p99 on a shared machine.
 */
export async function measureMcpRevisions(o: {
  companies: number;
  published: string;
  keysDb: string;
  port: number;
  /** GET /api/v1/company/<ticker> requests, a different company each: the tickers looked up. */
  companyRequests: LoadRequest[];
  earlier?: EarlierShim;
  rate: number;
  seconds: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<McpRevisionFigures> {
  const keys = KeyStore.open(o.keysDb);
  const { key } = keys.create({ tier: 'commercial', owner: 'bench mcp', daily: 1e12, perMinute: 1e12 });
  keys.close();
  const withKey = (reqs: LoadRequest[]) => reqs.map((r) => ({ ...r, headers: { ...r.headers, 'X-API-Key': key } }));
  const figures: McpRevisionFigures = {
    measuredAt: new Date().toISOString(),
    companies: o.companies,
    rate: o.rate,
    seconds: o.seconds,
    loadAverage: loadavg()[0]!,
    cores: cpus().length,
    cases: [],
  };
  const shims: Running[] = [];
  try {
    const here = await startShim(o.published, o.port, { KEYS_DB: o.keysDb });
    shims.push(here);
    const cases: { shim: Running; requests: LoadRequest[]; figures: McpRevisionFigures['cases'][number] }[] = [];
    for (const revision of MCP_REVISIONS) {
      const requests = withKey(mcpLookups(o.companyRequests, revision));
      await checkAnswers(here.base, requests, `this tree at ${revision}`);
      cases.push({ shim: here, requests, figures: { revision, at: 'here', rounds: [], cpuUs: [] } });
    }
    if (o.earlier) {
      const requests = withKey(mcpLookups(o.companyRequests, '2025-11-25'));
      const { shim, ownSnapshot } = await earlierShim(o.earlier, o.published, o.port + 1, o.keysDb, requests, o.log);
      shims.push(shim);
      figures.against = { rev: o.earlier.rev, ownSnapshot };
      cases.push({ shim, requests, figures: { revision: '2025-11-25', at: o.earlier.rev, rounds: [], cpuUs: [] } });
    }
    figures.cases = cases.map((c) => c.figures);
    const cpuPerCall = async (shim: Running, requests: LoadRequest[]) => {
      const before = cpuMs(shim.pid);
      const r = await saturated(shim.base, requests, { seconds: o.seconds, connections: 10 });
      const after = cpuMs(shim.pid);
      if (r.errors + r.non2xx > 0) throw new Error(`saturated load had ${r.errors} errors, ${r.non2xx} not 2xx: ${JSON.stringify(r.statuses)}`);
      return before === null || after === null ? NaN : ((after - before) * 1000) / (r.rps * o.seconds);
    };
    for (const c of cases) await paced(c.shim.base, c.requests, { rate: 100, seconds: 2 });
    for (let i = 0; i < o.rounds; i++) {
      for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
        c.figures.rounds.push(await paced(c.shim.base, c.requests, { rate: o.rate, seconds: o.seconds }));
        c.figures.cpuUs.push(await cpuPerCall(c.shim, c.requests));
      }
      o.log(
        `${o.companies}: MCP get_company at ${o.rate}/s, round ${i + 1}: ${cases
          .map(
            (c) =>
              `${caseName(c.figures)} p50 ${c.figures.rounds.at(-1)!.p50.toFixed(1)} p99 ${c.figures.rounds.at(-1)!.p99.toFixed(1)} ms, CPU ${c.figures.cpuUs.at(-1)!.toFixed(0)} µs a call`,
          )
          .join('; ')}`,
      );
    }
  } finally {
    for (const s of shims) await s.stop();
  }
  return figures;
}

/**
 * The earlier revision's shim on this tree's snapshot; when it cannot serve it (it does not start,
 * or its answers are not results: the snapshot's format differs), on the snapshot its own code
 * builds, and the reason is kept for the report.
 */
async function earlierShim(
  e: EarlierShim,
  published: string,
  port: number,
  keysDb: string,
  requests: LoadRequest[],
  log: (line: string) => void,
): Promise<{ shim: Running; ownSnapshot: string | null }> {
  let why: string;
  try {
    const shim = await startShimOf(e.tree, published, port, { KEYS_DB: keysDb });
    const failed = await failedAnswer(shim.base, requests);
    if (!failed) return { shim, ownSnapshot: null };
    await shim.stop();
    why = `its answers on this tree's snapshot were not results (${failed.slice(0, 200)})`;
  } catch (err) {
    why = `its shim did not serve this tree's snapshot (${(err as Error).message})`;
  }
  log(`${e.rev}: ${why}; building the snapshot with its own code`);
  const shim = await startShimOf(e.tree, e.buildOwn(), port, { KEYS_DB: keysDb });
  try {
    await checkAnswers(shim.base, requests, `${e.rev} on its own snapshot`);
  } catch (err) {
    await shim.stop();
    throw err;
  }
  return { shim, ownSnapshot: why };
}

/** A revision's own snapshot of `companies` (generate, snapshot, tree by its bench/stage.ts), published in `work`. */
export function buildWithRevision(tree: string, work: string, companies: number): string {
  for (const name of ['generate', 'snapshot', 'tree'])
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/stage.ts', name, work, String(companies)], {
      cwd: tree,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const published = join(work, 'published');
  mkdirSync(published, { recursive: true });
  if (!existsSync(join(published, 'current'))) symlinkSync('../snapshot', join(published, 'current'));
  return published;
}

const caseName = (c: McpRevisionFigures['cases'][number]) => `${c.revision}${c.at === 'here' ? '' : ` at ${c.at}`}`;
const caseOf = (f: McpRevisionFigures, revision: McpRevision, here: boolean) =>
  f.cases.find((c) => c.revision === revision && (c.at === 'here') === here);
const p99s = (c: McpRevisionFigures['cases'][number]) => c.rounds.map((r) => r.p99);
const clean = (c: McpRevisionFigures['cases'][number]) => c.rounds.every((r) => r.errors + r.non2xx === 0);

/** The stage's ratios, each the median of the rounds' own (runs back to back, on the machine as it was then). */
export function mcpRatios(f: McpRevisionFigures) {
  const modern = caseOf(f, '2026-07-28', true)!;
  const legacy = caseOf(f, '2025-11-25', true)!;
  const before = caseOf(f, '2025-11-25', false);
  return {
    p99ModernToLegacy: medianRatio(p99s(modern), p99s(legacy)),
    cpuModernToLegacy: medianRatio(modern.cpuUs, legacy.cpuUs),
    p99LegacyToBefore: before ? medianRatio(p99s(legacy), p99s(before)) : null,
    cpuLegacyToBefore: before ? medianRatio(legacy.cpuUs, before.cpuUs) : null,
  };
}

type Num = (x: number, digits?: number) => string;
type Met = (ok: boolean | null) => string;

/** The target rows of results.md. */
export function mcpTargetRows(f: McpRevisionFigures | undefined, n: Num, met: Met): string[] {
  if (!f) return [];
  const modern = caseOf(f, '2026-07-28', true)!;
  const legacy = caseOf(f, '2025-11-25', true)!;
  const p99 = median(p99s(modern));
  const ratios = mcpRatios(f);
  const where = `${n(f.rate)} calls/s, ${n(f.companies)} companies, ${modern.rounds.length === 1 ? 'one round' : `median of ${modern.rounds.length} rounds`}`;
  const rows = [
    `| MCP get_company at 2026-07-28 (stateless, \`_meta\` on every request), ${where}: p99 < ${MCP_TARGETS.p99Ms} ms | ${n(p99, 1)} ms (${n(ratios.p99ModernToLegacy, 2)}× the p99 at 2025-11-25) | ${met(p99 < MCP_TARGETS.p99Ms && clean(modern))} |`,
  ];
  if (f.against && ratios.p99LegacyToBefore !== null && ratios.cpuLegacyToBefore !== null) {
    const before = caseOf(f, '2025-11-25', false)!;
    rows.push(
      `| MCP get_company at 2025-11-25 no worse than at ${f.against.rev} (${where}): p99 ÷ its p99 ≤ ${MCP_TARGETS.noWorse} | ${n(ratios.p99LegacyToBefore, 2)}× | ${met(ratios.p99LegacyToBefore <= MCP_TARGETS.noWorse && clean(legacy) && clean(before))} |`,
      `| … and the shim's CPU a call ÷ its CPU a call ≤ ${MCP_TARGETS.noWorse} | ${n(ratios.cpuLegacyToBefore, 2)}× | ${met(ratios.cpuLegacyToBefore <= MCP_TARGETS.noWorse)} |`,
    );
  } else {
    rows.push(
      `| MCP get_company at 2025-11-25 no worse than the code before | — | not measured: run \`npm run bench -- --only mcp --companies ${f.companies} --rev REV\` |`,
    );
  }
  return rows;
}

/** The heading of the stage's section in results.md: one section per size (a later run of the stage replaces it). */
export const mcpSectionHeading = (companies: number, n: Num) => `## MCP get_company at 2026-07-28 and 2025-11-25, ${n(companies)} companies`;

/** The section of results.md: every round, the medians and ratios; with `targets`, the target rows first (the stage run alone). */
export function mcpSection(f: McpRevisionFigures | undefined, n: Num, met: Met, o: { targets: boolean; command?: string }): string[] {
  if (!f) return [];
  const ratios = mcpRatios(f);
  const against = f.against
    ? ` and ${f.against.rev}'s shim at 2025-11-25 (the code before, from its own checkout on this tree's node_modules${f.against.ownSnapshot === null ? ", serving this tree's snapshot" : `, serving a snapshot its own code built: ${f.against.ownSnapshot}`})`
    : '';
  const out = [
    '',
    mcpSectionHeading(f.companies, n),
    '',
    `Measured ${f.measuredAt}${o.command ? ` by \`${o.command}\`` : ''} on ${f.cores} cores, load average ${n(f.loadAverage, 2)} when it began (the machine is shared). The shim as \`npm start\` runs it, metered (a commercial key), ${n(f.companies)} companies: \`tools/call get_company\`, a different company each request, at 2026-07-28 (each request carrying its \`_meta\`: protocol version, client, capabilities; Mcp-Method and Mcp-Name headers) and at 2025-11-25 (the version header, no initialize: the server is stateless)${against}. Every lookup was first sent once and answered 200 with a result. In each round, each case paced at ${n(f.rate)} calls/s for ${n(f.seconds)} s, then saturated (10 connections) to read the shim's CPU a call (from /proc); order reversed every other round; ratios are the medians of the rounds' own.`,
  ];
  if (o.targets) out.push('', '| target | figure | status |', '|---|---|---|', ...mcpTargetRows(f, n, met));
  out.push(
    '',
    `| round | ${f.cases.map((c) => `${caseName(c)} p50 / p99 ms`).join(' | ')} | CPU a call µs: ${f.cases.map(caseName).join(' / ')} |`,
    `|---:|${f.cases.map(() => '---|').join('')}---|`,
  );
  f.cases[0]!.rounds.forEach((_, i) =>
    out.push(
      `| ${i + 1} | ${f.cases.map((c) => `${n(c.rounds[i]!.p50, 1)} / ${n(c.rounds[i]!.p99, 1)}${c.rounds[i]!.errors + c.rounds[i]!.non2xx > 0 ? ` (${c.rounds[i]!.errors} errors, ${c.rounds[i]!.non2xx} not 2xx)` : ''}`).join(' | ')} | ${f.cases.map((c) => n(c.cpuUs[i]!)).join(' / ')} |`,
    ),
  );
  out.push(
    `| median | ${f.cases.map((c) => `${n(median(c.rounds.map((r) => r.p50)), 1)} / **${n(median(p99s(c)), 1)}**`).join(' | ')} | ${f.cases.map((c) => n(median(c.cpuUs))).join(' / ')} |`,
    '',
    `2026-07-28 ÷ 2025-11-25, this tree: p99 **${n(ratios.p99ModernToLegacy, 2)}×**, CPU a call **${n(ratios.cpuModernToLegacy, 2)}×**.` +
      (f.against && ratios.p99LegacyToBefore !== null && ratios.cpuLegacyToBefore !== null
        ? ` 2025-11-25, this tree ÷ ${f.against.rev}: p99 **${n(ratios.p99LegacyToBefore, 2)}×**, CPU a call **${n(ratios.cpuLegacyToBefore, 2)}×**.`
        : ''),
  );
  return out;
}

/**
 * `section` (lines from its `## ` heading on) into the results file at `file`: in place of an earlier
 * section with the same heading, or else first after the file's opening lines, where the dated
 * sections of runs made alone go; every other section is kept as it is.
 */
export function mergeSection(file: string, section: string[]): void {
  // Split at every newline: the file's own ending (its last, empty, element) stays as it was.
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : ['# Benchmark results', ''];
  const body = section[0] === '' ? section.slice(1) : section;
  const heading = body[0]!;
  const start = lines.indexOf(heading);
  let at: number;
  if (start >= 0) {
    const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    const end = next < 0 ? lines.length : next;
    lines.splice(start, end - start);
    at = start;
  } else {
    const first = lines.findIndex((l) => l.startsWith('## '));
    at = first < 0 ? lines.length : first;
  }
  // A blank line on each side of the section, never two.
  while (at > 0 && lines[at - 1] === '') lines.splice(--at, 1);
  const next = at < lines.length ? [''] : [];
  lines.splice(at, 0, '', ...body, ...next);
  if (lines.at(-1) !== '') lines.push(''); // a file ends with its newline
  writeFileSync(file, lines.join('\n'));
}
