/**
 * Vite builds the Desk (renderer/) into static files that the Electron window (from file://)
 * and browser mode both load, under a CSP of `script-src 'self'`: one entry module named
 * main.js, no inline scripts, no eval, relative URLs.
 *
 * Paths are relative to the package root, where npm runs `vite build`; the e2e harness passes
 * `root` itself (test/e2e/renderer-build.ts).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  // file:// in Electron: every URL in the page is relative to index.html.
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    // Relative to `root`.
    outDir: '../build/renderer',
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // The polyfill would be an inline script; Chromium and Electron support modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // One bundle of about 800 kB, loaded from disk (file://) or from localhost in browser mode: no
    // network to split it for, so Vite's 500 kB warning only alarms a first `npm run
    // start:browser`. Still said when the bundle near doubles (a Node-only package pulled in).
    chunkSizeWarningLimit: 1_500,
    rolldownOptions: {
      output: {
        entryFileNames: 'main.js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: '[name][extname]'
      }
    }
  }
});
