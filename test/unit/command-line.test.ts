import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandLine } from '../../app/mcp/server-config.js';

describe('a stdio server’s command as the Desk shows it', () => {
  it('quotes each word a shell would split or read specially, and hides secret-looking values', () => {
    assert.equal(
      commandLine('sh', ['-c', 'echo "boom: missing API_KEY" >&2; exit 3']),
      `sh -c 'echo "boom: missing API_KEY" >&2; exit 3'`
    );
    assert.equal(
      commandLine('npx', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp', '--api-key', 'x', '--token=abc']),
      'npx -y @modelcontextprotocol/server-filesystem /tmp --api-key •••• --token=••••'
    );
    assert.equal(
      commandLine('C:\\Program Files\\node.exe', ["it's", '']),
      `'C:\\Program Files\\node.exe' 'it'\\''s' ''`
    );
  });
});
