/**
 * Vite builds the Desk (renderer/) into static files that the Electron window (from file://)
 * and browser mode both load, under a CSP of `script-src 'self'`: one entry module named
 * main.js, no inline scripts, no eval, relative URLs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.join(root, 'renderer'),
  // file:// in Electron: every URL in the page is relative to index.html.
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.join(root, 'build/renderer'),
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // The polyfill would be an inline script; Chromium and Electron support modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        entryFileNames: 'main.js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: '[name][extname]'
      }
    }
  }
});
