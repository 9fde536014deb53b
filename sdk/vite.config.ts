import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * Library build: one ESM file with the SDK and what it draws with (web/src's visualizations and dashboard grid, and
 * ECharts) bundled in; React stays the host app's (peer dependency). Declarations come from `tsc` (see package.json).
 */
export default defineConfig({
  root: __dirname,
  publicDir: false,
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    lib: { entry: resolve(__dirname, 'src/index.ts'), formats: ['es'], fileName: () => 'index.js' },
    rolldownOptions: {
      external: ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', /^react\//, /^react-dom\//],
    },
  },
});
