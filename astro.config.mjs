// Astro is for the pages people read (contract section 8). They are not built by `astro build`: the
// page writer (build-scripts/pages/) renders the .astro components of src/site/ with Astro's compiler
// and runtime inside its worker threads, into each snapshot's tree beside the JSON, from the same
// views (see the README's "Pages" section for why: speed at 100k companies). This file keeps the
// project an Astro project for editors and tooling; src/pages/ is empty on purpose.
import { defineConfig } from 'astro/config';

export default defineConfig({
  srcDir: './src',
  outDir: './dist/pages',
  trailingSlash: 'always',
  build: { format: 'directory' },
});
