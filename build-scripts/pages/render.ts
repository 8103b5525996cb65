import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { renderToString } from 'astro/runtime/server/render/astro/render.js';

/** Renders one Astro page component with its props into a whole HTML document. */
export type Render = (component: AstroComponentFactory, props: Record<string, unknown>) => Promise<string>;

/**
 * The render result ("SSRResult") Astro's runtime renders a page against, as Astro's own render
 * context builds it for a static page with Astro's defaults (compressHTML on, no renderers, no
 * scripts, styles or CSP), fresh for every page. Our components read only `Astro.props`, so the
 * `Astro` object each component gets carries its props and nothing of a request.
 */
function pageResult() {
  const result = {
    base: '/',
    userAssetsBase: '',
    cancelled: false,
    clientDirectives: new Map<string, string>(),
    inlinedScripts: new Map<string, string>(),
    componentMetadata: new Map<string, unknown>(),
    compressHTML: true,
    cookies: undefined,
    createAstro: (_static: unknown, props: Record<string, unknown>) => ({ props, self: null }),
    links: new Set(),
    params: {},
    partial: false,
    pathname: '/',
    renderers: [],
    resolve: async (s: string) => s,
    response: { status: 200, statusText: 'OK', headers: new Headers({ 'Content-Type': 'text/html' }) },
    request: undefined,
    scripts: new Set(),
    styles: new Set(),
    actionResult: undefined,
    serverIslandNameMap: new Map(),
    key: undefined,
    trailingSlash: 'ignore',
    _metadata: {
      hasHydrationScript: false,
      rendererSpecificHydrationScripts: new Set(),
      hasRenderedHead: false,
      renderedScripts: new Set(),
      hasDirectives: new Set(),
      hasRenderedServerIslandRuntime: false,
      headInTree: false,
      extraHead: [],
      extraStyleHashes: [],
      extraScriptHashes: [],
      propagators: new Set(),
    },
    cspDestination: 'header',
    shouldInjectCspMetaTags: false,
    cspAlgorithm: 'SHA-256',
    scriptHashes: [],
    scriptResources: [],
    styleHashes: [],
    styleResources: [],
    directives: [],
    isStrictDynamic: false,
    internalFetchHeaders: undefined,
  };
  return result;
}

/**
 * Astro's own runtime renders each page: the components are compiled by Astro's compiler
 * (astro-hooks.mjs) and rendered by `renderToString` from astro/runtime, against a result built
 * here. The alternatives cost more than the page itself (bench/results.md has the figures):
 * `experimental_AstroContainer.renderToString` has a fixed cost per call before a component
 * renders (a Request, a route pushed onto its manifest on every call, a render context, a Response
 * stream read back), and importing astro/container takes seconds in every worker.
 */
export async function createRenderer(): Promise<Render> {
  return async (component, props) => {
    const html = await renderToString(pageResult() as never, component, props, undefined, true);
    if (typeof html !== 'string') throw new Error('a page component returned a Response');
    return html;
  };
}
