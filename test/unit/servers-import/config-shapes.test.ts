import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readConfig, targetOf } from '../../../app/servers-import/config-shapes.js';

describe('what the Import panel is told an entry runs', () => {
  it('is nothing for an entry with no command, rather than an empty quoted word', () => {
    const { servers } = readConfig(
      { mcpServers: { half: { args: ['--port', '4000'] }, empty: {}, blank: { command: '  ', args: ['x'] } } },
      'claude-desktop'
    );
    assert.deepEqual(
      servers.map((entry) => [entry.key, targetOf(entry), entry.problem]),
      [
        ['half', '', '"command" is missing'],
        ['empty', '', '"command" is missing'],
        ['blank', '', '"command" is missing']
      ]
    );
  });

  it('is the command line, or the URL, of an entry that has one', () => {
    const { servers } = readConfig(
      {
        mcpServers: { notes: { command: 'uvx', args: ['notes-mcp', 'a b'] }, remote: { url: 'https://x.example/mcp' } }
      },
      'claude-desktop'
    );
    assert.deepEqual(
      servers.map((entry) => targetOf(entry)),
      ["uvx notes-mcp 'a b'", 'https://x.example/mcp']
    );
  });
});
