/**
 * Run by `npm test` before the test files: builds the renderer once for every e2e file, and
 * finds (on a machine without a system Chromium, unpacks) the browser they drive, so that the
 * files running in parallel neither build it again nor unpack it at once.
 */
import path from 'node:path';
import { resolveTestBrowser } from '../support/test-browser.js';
import { prepareRenderer, root } from './renderer-build.js';

const [dir, browser] = await Promise.all([prepareRenderer(), resolveTestBrowser()]);
console.log(
  `e2e: renderer built in ${path.relative(root, dir)}; browser ${browser.executablePath} (${browser.source})`
);
