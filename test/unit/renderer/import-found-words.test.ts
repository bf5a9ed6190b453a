import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportedServer, ImportSource } from '../../../app/contract/server-settings.js';
import {
  foundWords,
  importedWords,
  lookedWords,
  type ResultPart,
  type ResultState
} from '../../../renderer/servers/import-words.js';

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
      'Found 1 server to import in 1 config; 2 more are in Taskdesk already and 1 cannot be imported.'
    );
    assert.equal(
      foundWords([config([{ ...found('copy'), sameAs: 'Copy' }])]),
      'Nothing new to import in 1 config: 1 server is in Taskdesk already.'
    );
  });

  it('counts the servers that can be imported, and says apart how many cannot', () => {
    assert.equal(
      foundWords([config([found('notes'), found('half', '"command" is missing')])]),
      'Found 1 server to import in 1 config; 1 more cannot be imported.'
    );
    assert.equal(
      foundWords([
        config([found('notes'), found('files'), found('old', 'It uses the older HTTP+SSE transport')]),
        config([found('empty', '"command" is missing')])
      ]),
      'Found 2 servers to import in 2 configs; 2 more cannot be imported.'
    );
  });

  it('says when none can be imported, and leaves out the second part when all can', () => {
    assert.equal(
      foundWords([config([found('half', '"command" is missing')])]),
      'Nothing new to import in 1 config: 1 server cannot be imported.'
    );
    assert.equal(foundWords([config([found('notes'), found('files')])]), 'Found 2 servers to import in 1 config.');
    assert.equal(foundWords([config([])]), 'Found no servers to import in 1 config.');
  });

  it('counts apart the servers switched off in their app, which start unticked, naming the app', () => {
    const cursor = (servers: ImportedServer[]): ImportSource => ({
      ...config(servers),
      kind: 'cursor',
      label: 'Cursor'
    });
    assert.equal(
      foundWords([
        config([found('notes'), { ...found('paused'), disabled: true }, found('half', '"command" is missing')])
      ]),
      'Found 1 server to import in 1 config; 1 more is switched off in Claude Desktop and 1 cannot be imported.'
    );
    assert.equal(
      foundWords([
        config([
          { ...found('paused'), disabled: true },
          { ...found('copy'), sameAs: 'Copy' }
        ]),
        cursor([{ ...found('idle'), disabled: true }])
      ]),
      'Nothing new to import in 2 configs: 1 server is in Taskdesk already and 2 are switched off in their apps.'
    );
    // One Taskdesk has already is counted as that, switched off or not.
    assert.equal(
      foundWords([config([{ ...found('copy'), sameAs: 'Copy', disabled: true }])]),
      'Nothing new to import in 1 config: 1 server is in Taskdesk already.'
    );
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

/** The result line as read: each server named by its name (the panel makes it a way to its card). */
const read = (parts: readonly ResultPart[]) =>
  parts.map((part) => (typeof part === 'string' ? part : `[${part.name}]`)).join('');
const imported = (...states: Array<[name: string, state: ResultState]>) =>
  read(importedWords(states.map(([name, state]) => ({ id: name.replace(/\W+/g, '-'), name, state }))));

describe('the line of what an import did', () => {
  it('names each server once, and says once what they all are', () => {
    assert.equal(
      imported(['env-echo (2)', { is: 'connected' }], ['filesystem', { is: 'connected' }]),
      'Imported [env-echo (2)] and [filesystem]; both are connected.'
    );
    assert.equal(
      imported(['a', { is: 'connecting' }], ['b', { is: 'connecting' }], ['c', { is: 'connecting' }]),
      'Imported [a], [b] and [c]; all are still connecting.'
    );
    assert.equal(imported(['docs', { is: 'left' }], ['notes', { is: 'left' }]), 'Imported [docs] and [notes].');
    assert.equal(
      imported(['weather', { is: 'failed', reason: 'The command "uvx" was not found' }]),
      'Imported [weather]; it did not connect (The command "uvx" was not found).'
    );
    assert.equal(imported(), 'Nothing was imported.');
  });

  it('says that one its app has switched off was imported but not connected, and why', () => {
    assert.equal(
      imported(['github', { is: 'off', app: 'Claude Desktop' }]),
      'Imported [github]; it is not connected, since it is switched off in Claude Desktop.'
    );
    assert.equal(
      imported(['filesystem', { is: 'connected' }], ['github', { is: 'off', app: 'Claude Desktop' }]),
      'Imported 2 servers. Connected: [filesystem]. Switched off in Claude Desktop, so not connected: [github].'
    );
  });

  it('groups servers that stand apart, each named once, a failure with its own reason', () => {
    assert.equal(
      imported(
        ['filesystem', { is: 'connected' }],
        ['github', { is: 'failed', reason: 'no docker' }],
        ['weather', { is: 'failed', reason: 'no uvx' }],
        ['notes', { is: 'connecting' }]
      ),
      'Imported 4 servers. Connected: [filesystem]. Still connecting: [notes]. Did not connect: [github] (no docker); [weather] (no uvx).'
    );
    assert.equal(
      imported(['github', { is: 'failed', reason: 'no docker' }], ['weather', { is: 'failed', reason: 'no uvx' }]),
      'Imported 2 servers. Did not connect: [github] (no docker); [weather] (no uvx).'
    );
  });

  it('names one removed since in words, having no card to go to', () => {
    assert.equal(imported(['notes', { is: 'removed' }]), 'Imported notes; it was removed since.');
    assert.equal(
      imported(['a', { is: 'removed' }], ['b', { is: 'removed' }]),
      'Imported a and b; both were removed since.'
    );
    assert.equal(
      imported(['filesystem', { is: 'connected' }], ['notes', { is: 'left' }], ['github', { is: 'removed' }]),
      'Imported 3 servers. Connected: [filesystem]. Not connected: [notes]. Removed since: github.'
    );
  });
});
