import type { FetchPlan } from './source.js';

/** One GET of the source's URL into one file: the exchanges' OpenAPI datasets. */
export function singleGetPlan(file: string, url: string, expect: 'json' | 'csv' = 'json'): FetchPlan {
  return {
    url,
    async run(session, ctx) {
      await session.request({ file, method: 'GET', url: ctx.url, expect });
    },
  };
}
