// `node --import tsx --import ./build-scripts/pages/register-astro.mjs script.ts`: loads .astro
// components outside a worker thread, with the same hooks the page workers use.
import { register } from 'node:module';

register('./astro-hooks.mjs', import.meta.url);
