import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DEMO_SOURCES, publishDemo } from './defaults.js';

/** npm run demo [-- --companies N --seed N --sources DIR --now ISO]: generate the demo sources, build, publish. */
const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '1800' },
    seed: { type: 'string' },
    sources: { type: 'string', default: DEFAULT_DEMO_SOURCES },
    now: { type: 'string' },
  },
});

const companies = Number(values.companies);
if (!Number.isInteger(companies) || companies < 50) {
  console.error('--companies must be a whole number ≥ 50');
  process.exit(2);
}
await publishDemo({
  sourcesDir: resolve(values.sources),
  companies,
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  ...(values.now ? { now: new Date(values.now) } : {}),
});
