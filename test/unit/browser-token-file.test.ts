import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { TOKEN_FILE_NAME, loadOrCreateToken } from '../../app/browser/token-file.js';
import { tempDir } from '../support/host-fixture.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const posix = process.platform !== 'win32';

describe("browser mode's token file", () => {
  let data: ReturnType<typeof tempDir>;
  let file: string;
  beforeEach(() => {
    data = tempDir('taskdesk-token-file-');
    file = path.join(data.dir, TOKEN_FILE_NAME);
  });
  afterEach(() => data.remove());

  it('makes a token on first use, readable by its owner only, and gives the same one after', () => {
    const first = loadOrCreateToken(data.dir);
    assert.match(first.token, TOKEN);
    assert.equal(first.message, undefined);
    assert.equal(fs.readFileSync(file, 'utf8'), `${first.token}\n`);
    if (posix) assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(loadOrCreateToken(data.dir), { token: first.token });
    assert.deepEqual(fs.readdirSync(data.dir), [TOKEN_FILE_NAME], 'no temp file left');
  });

  it('makes the data directory when there is none yet', () => {
    const dir = path.join(data.dir, 'a', 'b');
    const made = loadOrCreateToken(dir);
    assert.equal(fs.readFileSync(path.join(dir, TOKEN_FILE_NAME), 'utf8').trim(), made.token);
  });

  it('replaces the token when asked to rotate', () => {
    const first = loadOrCreateToken(data.dir);
    const rotated = loadOrCreateToken(data.dir, { rotate: true });
    assert.match(rotated.token, TOKEN);
    assert.notEqual(rotated.token, first.token);
    assert.equal(rotated.message, undefined);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), rotated.token);
    assert.equal(loadOrCreateToken(data.dir).token, rotated.token);
  });

  it('replaces a file that holds no token, and says so', () => {
    for (const bad of ['', 'short', `${'a'.repeat(43)}!`, 'a'.repeat(44), '{"token":1}']) {
      fs.writeFileSync(file, bad);
      const made = loadOrCreateToken(data.dir);
      assert.match(made.token, TOKEN, JSON.stringify(bad));
      assert.equal(made.message, `${file} does not hold a browser mode token: made a new one.`);
      assert.equal(fs.readFileSync(file, 'utf8').trim(), made.token);
      if (posix) assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    }
  });

  it('narrows a token file others could read to its owner', () => {
    const first = loadOrCreateToken(data.dir);
    fs.chmodSync(file, 0o644);
    assert.deepEqual(loadOrCreateToken(data.dir), { token: first.token });
    if (posix) assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  it('writes 0600 even over a temp file a crash left with a wider mode', () => {
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, 'left over', { mode: 0o644 });
    const made = loadOrCreateToken(data.dir);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), made.token);
    if (posix) assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.ok(!fs.existsSync(temp));
  });

  it('keeps a token for this launch only when it can be neither read nor saved, and says why', () => {
    // A directory where the file should be: it cannot be read as one, nor renamed over.
    fs.mkdirSync(path.join(file, 'inside'), { recursive: true });
    const made = loadOrCreateToken(data.dir);
    assert.match(made.token, TOKEN);
    assert.match(
      made.message ?? '',
      /^The saved browser mode token could not be read \(.+\); the new one could not be saved \(.+\), so it changes at the next launch\.$/
    );
    assert.ok(fs.statSync(file).isDirectory(), 'nothing of ours replaced it');
    assert.deepEqual(fs.readdirSync(data.dir), [TOKEN_FILE_NAME], 'no temp file left');
  });
});
