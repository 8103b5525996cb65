
export const DEFAULT_DEMO_SOURCES = 'data/demo-sources';

/** The demo's publish moment is fixed (the day after its as-of date) so demo builds are reproducible. */
export function demoPublishTime(asof: string): Date {
  const d = new Date(`${asof}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d;
}
