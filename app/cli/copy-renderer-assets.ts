/**
 * Build step after `tsc -b`: puts the renderer's static files (the page, its stylesheet and
 * icon) into build/renderer beside the compiled modules.
 */
import path from 'node:path';
import { builtRendererDir, packageRoot } from './package-root.js';
import { copyRendererAssets } from './renderer-assets.js';

const root = packageRoot();
for (const file of copyRendererAssets(path.join(root, 'renderer'), builtRendererDir(root))) {
  console.log(`copied ${path.relative(root, file)}`);
}
