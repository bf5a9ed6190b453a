import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stdioSpawnTarget } from '../../../app/mcp/stdio-spawn.js';

describe('the environment of a stdio server Taskdesk starts', () => {
  const node = { type: 'stdio' as const, command: process.execPath, args: [] };

  it('carries the proxy variables of Taskdesk’s own, in either case, and nothing else of it', () => {
    const { params } = stdioSpawnTarget(node, process.env.PATH, {
      HTTPS_PROXY: 'http://proxy.example:3128',
      no_proxy: 'intranet.example',
      http_proxy: '',
      SECRET_TOKEN: 'not-for-servers'
    });
    assert.equal(params.env?.HTTPS_PROXY, 'http://proxy.example:3128');
    assert.equal(params.env?.no_proxy, 'intranet.example');
    assert.equal('http_proxy' in (params.env ?? {}), false, 'an empty one is left out');
    assert.equal(params.env?.SECRET_TOKEN, undefined);
  });

  it('lets the server’s own env setting win, in whichever spelling it is set', () => {
    const { params } = stdioSpawnTarget({ ...node, env: { HTTPS_PROXY: 'http://its-own:8080' } }, process.env.PATH, {
      HTTPS_PROXY: 'http://proxy.example:3128',
      https_proxy: 'http://proxy.example:3128',
      NO_PROXY: 'intranet.example'
    });
    assert.equal(params.env?.HTTPS_PROXY, 'http://its-own:8080');
    // Most tools read the lower case first: Taskdesk's would win over the server's own.
    assert.equal('https_proxy' in (params.env ?? {}), false);
    assert.equal(params.env?.NO_PROXY, 'intranet.example', 'what it does not set is passed on');
  });
});
