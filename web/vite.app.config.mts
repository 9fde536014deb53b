import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The application (app.html, src/app/: sign-in, setup, the shell, the admin console), split into a chunk per area.
 * Built after the public and embed pages (vite.config.mts) into the same web/dist, as a build of its own so those
 * pages stay exactly what they were (bench/web.ts measures them): no chunk is shared between the two. The server
 * serves app.html at the application's paths and the hashed files under /app/assets/ (long cache).
 * .vite/app-manifest.json maps each source to its chunk (scripts/app-size.js reads it).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // The other build's files (and old hashed chunks a page loaded before a rebuild still asks for) stay.
    emptyOutDir: false,
    sourcemap: false,
    manifest: '.vite/app-manifest.json',
    rolldownOptions: {
      input: fileURLToPath(new URL('app.html', import.meta.url)),
      // Mantine marks its modules 'use client' (for React server components, which a built SPA has none of).
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
