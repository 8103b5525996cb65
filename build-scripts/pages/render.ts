import { experimental_AstroContainer } from 'astro/container';
import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
import { renderToString } from 'astro/runtime/server/render/astro/render.js';
import ResultProbe from '../../src/site/components/ResultProbe.astro';

/** Renders one Astro page component with its props into a whole HTML document. */
export type Render = (component: AstroComponentFactory, props: Record<string, unknown>) => Promise<string>;

/** What a page render writes into its result's metadata: fresh for every page. */
function freshMetadata() {
  return {
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
  };
}

/**
 * Astro's own renderer, called in-process per page. Astro's container API (renderToString) costs
 * about 0.7 ms per call before a component renders — a Request, a route added to its manifest, a
 * render context, a Response stream read back — which is most of a page. So the container renders
 * one probe component, which hands back its SSRResult, and each page is then rendered by Astro's
 * runtime `renderToString` against a copy of that result with fresh per-page metadata: the same
 * components, compiled by Astro's compiler, rendered by Astro's runtime, without the per-request
 * scaffolding a static page does not use (the pages read only Astro.props).
 */
export async function createRenderer(): Promise<Render> {
  const container = await experimental_AstroContainer.create();
  let base: object | undefined;
  await container.renderToString(ResultProbe, { props: { receive: (r: object) => (base = r) }, partial: false });
  if (!base) throw new Error('the probe component did not hand back its render result');
  const template = base;
  return async (component, props) => {
    const result = Object.assign(Object.create(template), { _metadata: freshMetadata(), partial: false });
    const html = await renderToString(result, component, props, undefined, true);
    if (typeof html !== 'string') throw new Error('a page component returned a Response');
    return html;
  };
}
