// Worker threads start without the parent's loaders: register tsx for TypeScript, then the .astro
// hooks (registered last, so they see .astro files first), then load the worker.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
register('./astro-hooks.mjs', import.meta.url);
await import('./pages-worker.ts');
