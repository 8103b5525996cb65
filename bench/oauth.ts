import { KeyStore } from '../server/access/key-store.js';
import { OAuthStore } from '../server/oauth/store.js';
import { median, medianRatio, type LoadRequest, type LoadResult } from './load.js';
import { paced, saturated } from './paced.js';
import { cpuMs, startShim } from './servers.js';

/**
 * The speed targets for OAuth (`npm run bench -- --only oauth`, and in a whole run):
 * - `tools/call get_company` with an access token at MCP_RATE calls a second, p99 < 20 ms at the
 *   run's size (100,000 companies), beside the same calls with a key;
 * - what checking a token costs, against what a metered REST call costs the shim: ≤ 10 %.
 */
export interface OAuthFigures {
  companies: number;
  rate: number;
  /** Per round, the MCP lookups paced with a key and with a token, back to back (order reversed every other round). */
  rounds: { key: LoadResult; token: LoadResult }[];
  /** The shim's CPU per MCP lookup at saturation, µs, with a key and with a token, per round. */
  mcpCpuUs: { key: number[]; token: number[] };
  /** The shim's CPU per metered REST call (canonical view with a field filter, X-API-Key) at saturation, µs, per round. */
  restCpuUs: number[];
  /** One token check (OAuthStore.checkAccess: hash, one joined read of token, grant and key) in this process, µs, per round. */
  checkUs: number[];
}

export const OAUTH_TARGETS = { p99Ms: 20, checkShare: 0.1 };

/** A token check's cost ÷ a metered REST call's CPU, the median of the rounds' own ratios. */
export const checkShare = (o: OAuthFigures) => medianRatio(o.checkUs, o.restCpuUs);

/** An access token for a key, as the consent page and the token endpoint would issue it (the same store calls). */
function tokenFor(keysDb: string): { key: string; token: string; close(): void } {
  const keys = KeyStore.open(keysDb);
  const store = new OAuthStore(keys);
  const { record, key } = keys.create({ tier: 'commercial', owner: 'bench oauth', daily: 1e12, perMinute: 1e12 });
  const client = store.registerClient({ client_name: 'bench', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' });
  const request = store.openRequest({
    client_id: client.client_id,
    client_name: 'bench',
    redirect_uri: 'http://127.0.0.1:9/cb',
    code_challenge: 'unused: the bench exchanges the code itself',
    state: null,
    resource: 'http://127.0.0.1/mcp',
    locale: 'en',
  });
  const code = store.grant(request, record, 'bench@example.org');
  const exchanged = store.exchangeCode(client.client_id, code, undefined);
  if (!exchanged.ok) throw new Error(exchanged.why);
  return { key, token: exchanged.tokens.access_token, close: () => keys.close() };
}

/** µs per call of `f`, over `calls` calls after a warm-up. */
function perCallUs(calls: number, f: () => void): number {
  for (let i = 0; i < Math.min(calls, 2000); i++) f();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) f();
  return Number(process.hrtime.bigint() - t0) / 1000 / calls;
}

export async function measureOAuth(o: {
  companies: number;
  published: string;
  keysDb: string;
  port: number;
  /** MCP lookups (bench/run.ts mcpLookups) and a metered REST load, without credentials. */
  mcp: LoadRequest[];
  rest: LoadRequest[];
  rate: number;
  seconds: number;
  rounds: number;
  log: (line: string) => void;
}): Promise<OAuthFigures> {
  const { key, token, close } = tokenFor(o.keysDb);
  // Sign-in is on only with mail (it needs the mailed link); nothing is mailed here, so the relay is a closed port.
  const shim = await startShim(o.published, o.port, {
    KEYS_DB: o.keysDb,
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMTP_FROM: 'bench@example.org',
    PUBLIC_URL: `http://127.0.0.1:${o.port}`,
  });
  const withKey = (reqs: LoadRequest[]) => reqs.map((r) => ({ ...r, headers: { ...r.headers, 'X-API-Key': key } }));
  const withToken = (reqs: LoadRequest[]) => reqs.map((r) => ({ ...r, headers: { ...r.headers, Authorization: `Bearer ${token}` } }));
  const cpuPerCall = async (reqs: LoadRequest[]) => {
    const before = cpuMs(shim.pid);
    const r = await saturated(shim.base, reqs, { seconds: o.seconds, connections: 10 });
    const after = cpuMs(shim.pid);
    if (r.errors + r.non2xx > 0) throw new Error(`saturated load had ${r.errors} errors, ${r.non2xx} not 2xx: ${JSON.stringify(r.statuses)}`);
    return before === null || after === null ? NaN : ((after - before) * 1000) / (r.rps * o.seconds);
  };
  const figures: OAuthFigures = { companies: o.companies, rate: o.rate, rounds: [], mcpCpuUs: { key: [], token: [] }, restCpuUs: [], checkUs: [] };
  const keys = KeyStore.open(o.keysDb);
  const store = new OAuthStore(keys);
  try {
    await paced(shim.base, withToken(o.mcp), { rate: 100, seconds: 2 });
    await paced(shim.base, withKey(o.rest), { rate: 100, seconds: 2 });
    for (let i = 0; i < o.rounds; i++) {
      const order = i % 2 === 0 ? (['key', 'token'] as const) : (['token', 'key'] as const);
      const round: Partial<OAuthFigures['rounds'][number]> = {};
      for (const which of order) {
        const reqs = which === 'key' ? withKey(o.mcp) : withToken(o.mcp);
        round[which] = await paced(shim.base, reqs, { rate: o.rate, seconds: o.seconds });
        figures.mcpCpuUs[which].push(await cpuPerCall(reqs));
      }
      figures.rounds.push(round as OAuthFigures['rounds'][number]);
      figures.restCpuUs.push(await cpuPerCall(withKey(o.rest)));
      figures.checkUs.push(
        perCallUs(20_000, () => {
          if (!store.checkAccess(token).ok) throw new Error('the bench token is not live');
        }),
      );
      o.log(
        `${o.companies}: MCP lookup at ${o.rate}/s, key p99 ${round.key!.p99.toFixed(1)} ms, token p99 ${round.token!.p99.toFixed(1)} ms; CPU a lookup key ${figures.mcpCpuUs.key.at(-1)!.toFixed(0)} µs, token ${figures.mcpCpuUs.token.at(-1)!.toFixed(0)} µs; metered REST call ${figures.restCpuUs.at(-1)!.toFixed(0)} µs; a token check ${figures.checkUs.at(-1)!.toFixed(2)} µs`,
      );
    }
  } finally {
    keys.close();
    close();
    await shim.stop();
  }
  return figures;
}

/** The target rows of results.md. */
export function oauthTargetRows(
  f: OAuthFigures | undefined,
  n: (x: number, digits?: number) => string,
  met: (ok: boolean | null) => string,
): string[] {
  if (!f) return [];
  const p99 = median(f.rounds.map((r) => r.token.p99));
  const clean = f.rounds.every((r) => r.token.errors + r.token.non2xx === 0);
  const share = checkShare(f);
  return [
    `| MCP get_company with an OAuth access token at ${n(f.rate)} calls/s, ${n(f.companies)} companies: p99 < ${OAUTH_TARGETS.p99Ms} ms (median of ${f.rounds.length} rounds) | ${n(p99, 1)} ms | ${met(p99 < OAUTH_TARGETS.p99Ms && clean)} |`,
    `| a token check costs ≤ ${OAUTH_TARGETS.checkShare * 100} % of a metered REST call | ${n(share * 100, 2)} % | ${met(share <= OAUTH_TARGETS.checkShare)} |`,
  ];
}

/** The section of results.md: every round. */
export function oauthSection(f: OAuthFigures | undefined, n: (x: number, digits?: number) => string): string[] {
  if (!f) return [];
  const out = [
    '',
    '## OAuth access tokens',
    '',
    `The shim as \`npm start\` runs it with sign-in on, ${n(f.companies)} companies. In each round: MCP \`tools/call get_company\` paced at ${n(f.rate)}/s with a key (X-API-Key) and with an OAuth access token (Authorization: Bearer), back to back, order reversed every other round; then each saturated to read the shim's CPU a call; a metered REST call (canonical view with a field filter, X-API-Key) saturated likewise; and one token check (OAuthStore.checkAccess: SHA-256, one joined read of token, grant and key) timed in the bench's own process.`,
    '',
    '| round | key p50 / p99 ms | token p50 / p99 ms | CPU a lookup, key / token µs | metered REST call CPU µs | a token check µs | check ÷ REST call |',
    '|---:|---|---|---|---:|---:|---:|',
  ];
  f.rounds.forEach((r, i) =>
    out.push(
      `| ${i + 1} | ${n(r.key.p50, 1)} / ${n(r.key.p99, 1)} | ${n(r.token.p50, 1)} / **${n(r.token.p99, 1)}** | ${n(f.mcpCpuUs.key[i]!)} / ${n(f.mcpCpuUs.token[i]!)} | ${n(f.restCpuUs[i]!)} | ${n(f.checkUs[i]!, 2)} | ${n((f.checkUs[i]! / f.restCpuUs[i]!) * 100, 2)} % |`,
    ),
  );
  out.push(
    '',
    `CPU a lookup, token ÷ key: **${n(medianRatio(f.mcpCpuUs.token, f.mcpCpuUs.key), 3)}×** (median of the rounds' ratios). A token check ÷ a metered REST call: **${n(checkShare(f) * 100, 2)} %**.`,
  );
  return out;
}
