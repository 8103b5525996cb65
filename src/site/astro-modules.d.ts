// .astro components are compiled by build-scripts/pages/astro-hooks.mjs when a page worker imports
// them; TypeScript sees each as a component factory (props are checked by the component itself).
declare module '*.astro' {
  import type { AstroComponentFactory } from 'astro/runtime/server/index.js';
  const Component: AstroComponentFactory;
  export default Component;
}
