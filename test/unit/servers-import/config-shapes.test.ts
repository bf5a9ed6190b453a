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

describe('a server its app has switched off', () => {
  it('is read from "disabled": true in each shape, which is then not reported as a field Taskdesk does not use', () => {
    const shapes: Array<[unknown, Parameters<typeof readConfig>[1]]> = [
      [
        { mcpServers: { off: { command: 'uvx', disabled: true }, on: { command: 'uvx', disabled: false } } },
        'claude-desktop'
      ],
      [
        { mcpServers: { off: { url: 'https://x.example/mcp', disabled: true }, on: { url: 'https://x.example/mcp' } } },
        'cursor'
      ],
      [
        { servers: { off: { type: 'stdio', command: 'uvx', disabled: true }, on: { type: 'stdio', command: 'uvx' } } },
        'vscode-workspace'
      ],
      [{ mcp: { servers: { off: { command: 'uvx', disabled: true }, on: { command: 'uvx' } } } }, 'vscode-user']
    ];
    for (const [value, kind] of shapes)
      assert.deepEqual(
        readConfig(value, kind).servers.map((entry) => [entry.key, entry.disabled, entry.unknownFields]),
        [
          ['off', true, []],
          ['on', false, []]
        ],
        kind
      );
  });

  it('is not read from a "disabled" that is not true or false: that one is reported, as any field Taskdesk does not use', () => {
    const { servers } = readConfig({ mcpServers: { odd: { command: 'uvx', disabled: 'yes' } } }, 'pasted');
    assert.deepEqual(
      servers.map((entry) => [entry.disabled, entry.unknownFields]),
      [[false, ['disabled']]]
    );
  });
});
