import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandLineParts, commandUrlWords, withCommandSplit } from '../../../renderer/servers/command-split.js';
import { emptyDraft } from '../../../renderer/servers/server-draft.js';

describe('a command line in the Command field', () => {
  it('parts into the command and its arguments, quotes kept together', () => {
    assert.deepEqual(commandLineParts('npx -y @modelcontextprotocol/server-everything'), {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything']
    });
    assert.deepEqual(commandLineParts(`  node "my server.js" --name='a b' $HOME/data *.json `), {
      command: 'node',
      args: ['my server.js', '--name=a b', '$HOME/data', '*.json']
    });
    assert.deepEqual(commandLineParts('"/opt/my tools/server" --stdio'), {
      command: '/opt/my tools/server',
      args: ['--stdio']
    });
  });

  it('is left as typed when there is nothing safe to split', () => {
    for (const text of [
      'npx',
      '"/opt/my tools/server"',
      'C:\\Program Files\\nodejs\\node.exe',
      'server --log | tee out.txt',
      'server > out.txt',
      'a && b',
      'server # a comment',
      'node "two\nlines"'
    ])
      assert.equal(commandLineParts(text), undefined, text);
  });

  it('splits a draft whose Arguments is empty, and says what it did', () => {
    const draft = { ...emptyDraft(), name: 'Everything', command: 'npx -y @modelcontextprotocol/server-everything' };
    assert.deepEqual(withCommandSplit(draft), {
      ...draft,
      command: 'npx',
      args: '-y\n@modelcontextprotocol/server-everything',
      commandSplit: 'Split into the command npx and 2 arguments, one a line in Arguments.'
    });
    assert.equal(
      withCommandSplit({ ...draft, command: 'uvx mcp-server-git' })?.commandSplit,
      'Split into the command uvx and 1 argument, one a line in Arguments.'
    );
    // Arguments typed already: the person parted them; an HTTP server has no command.
    assert.equal(withCommandSplit({ ...draft, args: '--stdio' }), undefined);
    assert.equal(withCommandSplit({ ...draft, transport: 'http' }), undefined);
  });
});

describe('an address in the Command field', () => {
  it('is said to be a URL, for Streamable HTTP; a command is not', () => {
    const words = 'This is a URL: choose Streamable HTTP for a server at an address.';
    for (const text of ['http://127.0.0.1:58888/mcp', ' https://mcp.example.com/mcp ', 'HTTPS://Example.com'])
      assert.equal(commandUrlWords(text), words, text);
    for (const text of [
      'npx',
      'http-server',
      './http:/x',
      'npx mcp-remote https://mcp.example.com/mcp',
      'file:///bin/sh',
      'http://'
    ])
      assert.equal(commandUrlWords(text), undefined, text);
  });
});
