// Astro is for the pages people read (contract section 8): they will be rendered from the same views
// as the JSON tree, into each snapshot's folder. The JSON tree itself is written by the project's own
// writer (build-scripts/tree), which is about ten times faster than Astro endpoints for 200k files
// and can write /company/X.json beside /company/X/ (Astro cannot). No pages exist yet.
import { defineConfig } from 'astro/config';

export default defineConfig({
  srcDir: './src',
  outDir: './dist/pages',
  trailingSlash: 'always',
  build: { format: 'directory' },
});
