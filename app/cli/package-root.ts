import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory of Taskdesk's package.json, found by walking up from this module.
 *
 * Entry scripts run both from source (`tsx app/cli/…`) and compiled (`build/app/cli/…`), one
 * level apart; walking up finds the root from either.
 */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'taskdesk'
    )
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`No taskdesk package.json above ${from}`);
  }
}

/** Where the build puts the renderer (compiled modules and static assets). */
export function builtRendererDir(root: string = packageRoot()): string {
  return path.join(root, 'build', 'renderer');
}
