import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The public and embed pages. Built into web/dist, served by the server: index.html for the page routes, the hashed
 * files under /app/assets/ (long cache). JSX is compiled by Vite's own transformer (React's automatic runtime), so no
 * React plugin is needed (no fast refresh: this app is built, not developed against a dev server).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // Old hashed chunks stay (a page loaded before a rebuild still finds them; several test processes share this
    // directory); `npm run build:web` empties it.
    emptyOutDir: false,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
});
