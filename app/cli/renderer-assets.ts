import fs from 'node:fs';
import path from 'node:path';

/** The renderer's files that tsc does not emit. */
export const RENDERER_ASSETS = ['index.html', 'styles.css', 'icon.svg'] as const;

/**
 * Copies the renderer's static files next to its compiled modules.
 *
 * tsc emits only the `.js`; the page and its stylesheet travel beside them so that Electron
 * (from `file://`) and browser mode serve one directory.
 */
export function copyRendererAssets(sourceDir: string, targetDir: string): string[] {
  fs.mkdirSync(targetDir, { recursive: true });
  return RENDERER_ASSETS.map((name) => {
    const target = path.join(targetDir, name);
    fs.copyFileSync(path.join(sourceDir, name), target);
    return target;
  });
}
