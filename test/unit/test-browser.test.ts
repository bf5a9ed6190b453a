import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { tempDir } from '../support/host-fixture.js';
import { BROWSER_ENV, resolveTestBrowser } from '../support/test-browser.js';

describe('the e2e tests find a browser on any machine', () => {
  const dirs: Array<{ dir: string; remove: () => void }> = [];
  const temp = (prefix: string) => {
    const made = tempDir(prefix);
    dirs.push(made);
    return made.dir;
  };
  after(() => dirs.forEach((made) => made.remove()));

  it('takes the binary the environment variable names, and refuses one that is not executable', async () => {
    const dir = temp('browser-env-');
    const binary = path.join(dir, 'my-chrome');
    fs.writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 });
    assert.deepEqual(await resolveTestBrowser({ [BROWSER_ENV]: binary, PATH: '' }), {
      executablePath: binary,
      source: 'environment'
    });
    fs.chmodSync(binary, 0o644);
    await assert.rejects(resolveTestBrowser({ [BROWSER_ENV]: binary, PATH: '' }), /is not an executable file/);
  });

  it("takes the system's Chromium from PATH before the npm one", async () => {
    const dir = temp('browser-path-');
    const binary = path.join(dir, 'chromium');
    fs.writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 });
    assert.deepEqual(await resolveTestBrowser({ PATH: `${temp('empty-')}${path.delimiter}${dir}` }), {
      executablePath: binary,
      source: 'system'
    });
  });

  it('with no browser installed, unpacks the Chromium of the npm package @sparticuz/chromium', async () => {
    const found = await resolveTestBrowser({ PATH: temp('no-browser-') });
    assert.equal(found.source, 'npm');
    fs.accessSync(found.executablePath, fs.constants.X_OK);
  });
});
