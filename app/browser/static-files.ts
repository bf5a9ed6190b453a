import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';

/**
 * The page's Content-Security-Policy: only our own scripts, styles and API; no inline code,
 * no framing, no plugins. The same policy is in the page's `<meta>` for the Electron shell.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'"
].join('; ');

/** Headers every response carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  // The page URL holds the launch token; it must not leak to anything the page links to.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store'
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8'
};

/**
 * Serves the built renderer from one directory: known file types only, nothing outside it.
 *
 * Returns false when there is no such file, so the caller answers 404.
 */
export async function serveStatic(
  rendererDir: string,
  urlPath: string,
  response: ServerResponse,
  headOnly: boolean
): Promise<boolean> {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    return false;
  }
  if (relative.includes('\0')) return false;
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${relative}`);
  if (!file.startsWith(root + path.sep)) return false;
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()];
  if (!type) return false;
  let body: Buffer;
  try {
    // realpath keeps a symlink inside the directory from pointing outside it.
    const real = await fs.realpath(file);
    if (!real.startsWith((await fs.realpath(root)) + path.sep)) return false;
    body = await fs.readFile(real);
  } catch {
    return false;
  }
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': String(body.length) });
  response.end(headOnly ? undefined : body);
  return true;
}
