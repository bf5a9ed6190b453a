import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportedServer, ImportSource } from '../../../app/contract/server-settings.js';
import { foundWords, lookedWords } from '../../../renderer/servers/import-words.js';

const found = (key: string, problem?: string): ImportedServer => ({
  key,
  id: key,
  transport: 'stdio',
  target: problem === undefined ? `${key}-server` : '',
  env: [],
  headers: [],
  inputs: [],
  unknownFields: [],
  unresolved: [],
  ...(problem !== undefined && { problem }),
  clash: false
});
const config = (servers: ImportedServer[], exists = true): ImportSource => ({
  kind: 'claude-desktop',
  label: 'Claude Desktop',
  path: '/home/ada/.config/Claude/claude_desktop_config.json',
  exists,
  servers,
  inputs: []
});

describe('the heading of what an import found', () => {
  it('counts apart the servers Taskdesk has already, which start unticked', () => {
    assert.equal(
      foundWords([
        config([
          found('new'),
          { ...found('copy'), sameAs: 'Copy' },
          { ...found('named'), clash: true },
          found('half', '"command" is missing')
        ])
      ]),
      'Found 1 server to import in 1 config, 2 that Taskdesk has already, and 1 that cannot be imported.'
    );
    assert.equal(
      foundWords([config([{ ...found('copy'), sameAs: 'Copy' }])]),
      'Found no servers to import in 1 config, and 1 that Taskdesk has already.'
    );
  });

  it('counts the servers that can be imported, and says apart how many cannot', () => {
    assert.equal(
      foundWords([config([found('notes'), found('half', '"command" is missing')])]),
      'Found 1 server to import in 1 config, and 1 that cannot be imported.'
    );
    assert.equal(
      foundWords([
        config([found('notes'), found('files'), found('old', 'It uses the older HTTP+SSE transport')]),
        config([found('empty', '"command" is missing')])
      ]),
      'Found 2 servers to import in 2 configs, and 2 that cannot be imported.'
    );
  });

  it('says when none can be imported, and leaves out the second part when all can', () => {
    assert.equal(
      foundWords([config([found('half', '"command" is missing')])]),
      'Found no servers to import in 1 config, and 1 that cannot be imported.'
    );
    assert.equal(foundWords([config([found('notes'), found('files')])]), 'Found 2 servers to import in 1 config.');
    assert.equal(foundWords([config([])]), 'Found no servers to import in 1 config.');
  });

  it('counts only the configs that were there', () => {
    assert.equal(foundWords([config([]), config([], false)]), 'Found no servers to import in 1 config.');
    assert.equal(foundWords([config([], false)]), 'Found no configs to import from.');
  });
});

const place = (kind: ImportSource['kind'], label: string, file: string, exists = false): ImportSource => ({
  kind,
  label,
  path: file.startsWith('/') ? file : `/home/ada/${file}`,
  exists,
  servers: [],
  inputs: []
});
const apps = (found: readonly string[] = []): ImportSource[] =>
  (
    [
      ['claude-desktop', 'Claude Desktop', '.config/Claude/claude_desktop_config.json'],
      ['cursor', 'Cursor', '.cursor/mcp.json'],
      ['vscode-user', 'VS Code (user settings)', '.config/Code/User/settings.json'],
      ['vscode-user', 'VS Code (user mcp.json)', '.config/Code/User/mcp.json']
    ] as const
  ).map(([kind, label, file]) => place(kind, label, file, found.includes(file)));
const pastedConfig: ImportSource = { kind: 'pasted', label: 'Pasted JSON', exists: true, servers: [], inputs: [] };

describe('where a look found no config', () => {
  it('names the apps and their places when none keeps a config here', () => {
    assert.deepEqual(lookedWords(apps(), { pasted: false }), [
      'Looked for Claude Desktop, Cursor and VS Code configs in: /home/ada/.config/Claude/claude_desktop_config.json, /home/ada/.cursor/mcp.json, /home/ada/.config/Code/User/settings.json and /home/ada/.config/Code/User/mcp.json (none there).'
    ]);
  });

  it('says only the places with nothing there when some app keeps a config', () => {
    assert.deepEqual(
      lookedWords(apps(['.config/Claude/claude_desktop_config.json', '.config/Code/User/settings.json']), {
        pasted: false
      }),
      ['Looked in: /home/ada/.cursor/mcp.json and /home/ada/.config/Code/User/mcp.json (no config there).']
    );
    assert.deepEqual(
      lookedWords(
        apps([
          '.config/Claude/claude_desktop_config.json',
          '.cursor/mcp.json',
          '.config/Code/User/settings.json',
          '.config/Code/User/mcp.json'
        ]),
        {
          pasted: false
        }
      ),
      []
    );
  });

  it('leaves out the apps’ places after a pasted config, but not a project folder’s file', () => {
    const project = place('cursor-project', 'Cursor project /work/site', '/work/site/.cursor/mcp.json');
    assert.deepEqual(lookedWords([...apps(), pastedConfig], { pasted: true }), []);
    assert.deepEqual(lookedWords([...apps(), project, pastedConfig], { pasted: true }), [
      'Looked in: /work/site/.cursor/mcp.json (no config there).'
    ]);
    assert.deepEqual(
      lookedWords([...apps(), project], { pasted: false }).at(-1),
      'Also looked in: /work/site/.cursor/mcp.json (no config there).'
    );
  });

  it('leaves out a project folder that is not there: its error says so', () => {
    const gone = {
      ...place('vscode-workspace', 'VS Code workspace /gone', '/gone/.vscode/mcp.json'),
      error: 'The folder /gone does not exist'
    };
    assert.deepEqual(lookedWords([...apps(['.cursor/mcp.json']), gone], { pasted: false }), [
      'Looked in: /home/ada/.config/Claude/claude_desktop_config.json, /home/ada/.config/Code/User/settings.json and /home/ada/.config/Code/User/mcp.json (no config there).'
    ]);
  });
});
