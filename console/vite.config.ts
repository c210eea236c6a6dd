import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The staff console: built into dist/console/ (scripts/build.mjs runs this at install), served by
// the service at /console (src/http/console.ts). Preact's JSX through Vite's own transform: no plugin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  clearScreen: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // No inline script anywhere: the page's policy allows none.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
