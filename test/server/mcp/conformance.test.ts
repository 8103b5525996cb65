import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetered, type Metered } from '../access/harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';
import { runConformance, unmet, type SuiteRun } from '../../helpers/mcp-conformance.js';
import { APPLICABLE_2025, APPLICABLE_2026, FIXTURE_CHECKS_2026, NOT_APPLICABLE_2025, NOT_APPLICABLE_2026 } from './conformance-scope.js';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the
 * started shim's /mcp, as `conformance server --url … --requirements <revision>` runs it: every
 * scenario a revision requires, at 2026-07-28 and at 2025-11-25. conformance-scope.ts says which
 * concern this server (every check passes) and why the others do not; a scenario the pinned suite
 * runs that it does not classify fails the test, so a new release of the suite is read before it
 * is trusted.
 */
/** Every scenario's failures that are not explained by `fixtureChecks`, by scenario. */
function failuresOf(run: SuiteRun, applicable: readonly string[], fixtureChecks: Record<string, string>) {
  return Object.fromEntries(
    applicable.map((s) => [
      s,
      unmet(run.scenarios.get(s) ?? [])
        .filter((c) => !(c.id in fixtureChecks))
        .map((c) => `${c.id}: ${c.errorMessage ?? c.description}`),
    ]),
  );
}

let m: Metered;
beforeAll(async () => {
  m = await startMetered(demoSnapshotsDir);
});
afterAll(async () => {
  await m?.close();
});

describe.each([
  { revision: '2026-07-28', applicable: APPLICABLE_2026, notApplicable: NOT_APPLICABLE_2026, fixtureChecks: FIXTURE_CHECKS_2026 },
  { revision: '2025-11-25', applicable: APPLICABLE_2025, notApplicable: NOT_APPLICABLE_2025, fixtureChecks: {} },
])('the conformance suite, --requirements $revision', ({ revision, applicable, notApplicable, fixtureChecks }) => {
  let run: SuiteRun;
  beforeAll(async () => {
    run = await runConformance(['server', '--url', `${m.base}/mcp`, '--requirements', revision]);
  }, 300_000);

  it('runs exactly the scenarios this test has classified', () => {
    expect([...run.scenarios.keys()].sort(), run.output).toEqual([...applicable, ...Object.keys(notApplicable)].sort());
  });

  it('passes every check of the scenarios that concern this server', () => {
    for (const s of applicable) expect(run.scenarios.get(s)?.length, `${s} ran no check`).toBeGreaterThan(0);
    expect(failuresOf(run, applicable, fixtureChecks)).toEqual(Object.fromEntries(applicable.map((s) => [s, []])));
  });
});
