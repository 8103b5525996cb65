import { describe, expect, it } from 'vitest';
import { bucketsFor, RouteMatcher } from '../../../src/contract/routes.js';

const matcher = new RouteMatcher();
/** The buckets of a call, as the shim finds its operation in the route table. */
function bucketsOf(method: string, segments: readonly string[], query: string) {
  const op = matcher.match(segments)!.ops.find((o) => o.method === method)!;
  return bucketsFor(op, method, query);
}

/** Which calls count toward which buckets (packs/day on the real endpoint: test/server/dynamic/packs.test.ts). */
describe('which calls are metered', () => {
  it.each([
    ['GET', ['company', 'D1101'], '', []],
    ['GET', ['ranking'], '', []],
    ['GET', ['usage'], '', []],
    ['GET', ['usage'], 'x=1', []],
    // ?page=N alone is the page the tree renders, free as nginx serves it (docs/api-decisions.md).
    ['GET', ['ranking'], 'page=2', []],
    ['GET', ['changes'], 'page=999', []],
    ['GET', ['ranking'], 'page=02', []],
    ['GET', ['ranking'], 'page=x', ['calls/day', 'calls/min']],
    ['GET', ['ranking'], 'page=2&limit=50', ['calls/day', 'calls/min']],
    ['GET', ['ranking'], 'page=2&page=3', ['calls/day', 'calls/min']],
    ['GET', ['company', 'D1101'], 'page=2', ['calls/day', 'calls/min']],
    ['GET', ['snapshots', '2026-11-01', 'ranking'], 'page=2', ['calls/day', 'calls/min']],
    ['GET', ['ranking'], 'limit=5', ['calls/day', 'calls/min']],
    ['GET', ['ranking'], 'format=csv&q=x', ['calls/day', 'calls/min', 'csv/day']],
    ['GET', ['ranking'], 'format=json', ['calls/day', 'calls/min']],
    ['GET', ['company', 'D1101', 'canonical'], 'fields=flags', ['calls/day', 'calls/min']],
    ['GET', ['company', 'D1101'], 'x=1', ['calls/day', 'calls/min']],
    // A download is a file whatever its query, served by nginx as it is.
    ['GET', ['downloads', '2026-11-01', 'companies.csv'], 'x=1', []],
    ['POST', ['batch'], '', ['calls/day', 'calls/min', 'batch/day']],
    ['POST', ['packs'], '', ['calls/day', 'calls/min', 'packs/day']],
  ] as const)('%s %j ?%s', (method, segments, query, buckets) => {
    expect(bucketsOf(method, segments, query)).toEqual(buckets);
  });
});
