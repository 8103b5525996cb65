import type { z } from 'zod';
import { changesQuerySchema } from '../src/contract/changes.js';
import { parseQuery } from '../src/contract/parse-request.js';
import { canonicalQuerySchema, compareQuerySchema, noQuerySchema, rankingQuerySchema, registryQuerySchema } from '../src/contract/queries.js';
import { apiSegments } from '../src/contract/request-path.js';
import { urls } from '../src/contract/urls.js';
import { Router } from '../server/router.js';
import { median } from './load.js';

/**
 * The router's reading of a request on the dynamic paths: the path matched and its parameters read,
 * then the query parsed by the operation's own declaration (server/router.ts `inputOf`), against
 * the way each handler read its query before, naming its schema and path itself (`BEFORE`, kept here
 * only to compare). In-process, in alternating rounds (A B, B A, …) so that a busy machine's slow
 * spells fall on both; the figure is the ratio of the medians (new ÷ before, of requests per second).
 */

/** How each handler parsed its own query before the router did it. */
const BEFORE: Readonly<Record<string, readonly [z.ZodObject, string]>> = {
  canonical: [canonicalQuerySchema, '/company/{ticker}/canonical'],
  ranking: [rankingQuerySchema, '/ranking'],
  compare: [compareQuerySchema, '/compare'],
  registry: [registryQuerySchema, '/sources/registry'],
  changes: [changesQuerySchema, '/changes'],
  usage: [noQuerySchema, '/usage'],
};

/** Dynamic requests as the bench's serving stage sends them (bench/run.ts), one of each endpoint and a few spellings. */
const PATHS = [
  `${urls.canonical('2330')}?fields=penalties,carbon,flags`,
  `${urls.ranking}?industry=${encodeURIComponent('半導體業')}&page=2`,
  `${urls.ranking}?gf=GF-P01&sort=score_asc`,
  `${urls.ranking}?q=${encodeURIComponent('台積')}`,
  `${urls.compare}?tickers=2330,2317,2454,1101,2412`,
  `${urls.registry}?gov_only=true`,
  `${urls.changes}?cause=penalty_new&min_abs_delta=5&limit=20`,
  urls.usage,
];

type Way = (url: string) => unknown;

function ways(router: Router): { before: Way; now: Way } {
  const resolve = (url: string) => {
    const q = url.indexOf('?');
    const resolved = router.resolve(apiSegments(q < 0 ? url : url.slice(0, q))!)!;
    return { op: resolved.ops[0]!, params: resolved.params, rawQuery: q < 0 ? '' : url.slice(q + 1) };
  };
  return {
    before: (url) => {
      const { op, rawQuery } = resolve(url);
      const [schema, endpoint] = BEFORE[op.id]!;
      return parseQuery(schema, rawQuery, endpoint);
    },
    now: (url) => {
      const { op, params, rawQuery } = resolve(url);
      return router.inputOf(op, params, rawQuery, undefined).query;
    },
  };
}

/** Requests per second of one way, over `ms` milliseconds. */
function throughput(way: Way, ms: number): number {
  let done = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < until) {
    for (const url of PATHS) way(url);
    done += PATHS.length;
    now = process.hrtime.bigint();
  }
  return done / (Number(now - start) / 1e9);
}

export interface RouterFigures {
  /** Requests per second, the median of the rounds. */
  before: number;
  now: number;
  /** now ÷ before: at least 0.97 means the router's parsing costs no more than the handlers' own did. */
  ratio: number;
  rounds: number;
}

export function measureRouter(rounds = 9, msPerRound = 1000): RouterFigures {
  const { before, now } = ways(new Router());
  // Both ways answer alike, and both warm up before any round counts.
  for (const url of PATHS) if (JSON.stringify(before(url)) !== JSON.stringify(now(url))) throw new Error(`router bench: ${url} parses differently`);
  throughput(before, msPerRound);
  throughput(now, msPerRound);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      a.push(throughput(before, msPerRound));
      b.push(throughput(now, msPerRound));
    } else {
      b.push(throughput(now, msPerRound));
      a.push(throughput(before, msPerRound));
    }
  }
  const [beforeRps, nowRps] = [median(a), median(b)];
  return { before: Math.round(beforeRps), now: Math.round(nowRps), ratio: Number((nowRps / beforeRps).toFixed(3)), rounds };
}
