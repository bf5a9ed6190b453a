import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportedServer, ImportSource } from '../../../app/contract/server-settings.js';
import { foundWords, importedWords, tooBigWords, type ResultPart } from '../../../renderer/servers/import-words.js';

const server = (key: string): ImportedServer => ({
  key,
  id: key,
  transport: 'stdio',
  target: `${key}-server`,
  env: [],
  headers: [],
  inputs: [],
  unknownFields: [],
  unresolved: [],
  clash: false
});
const source = (kind: ImportSource['kind'], label: string, more: Partial<ImportSource> = {}): ImportSource => ({
  kind,
  label,
  exists: true,
  servers: [],
  inputs: [],
  ...more
});
const claude = source('claude-desktop', 'Claude Desktop', {
  path: '/home/ada/.config/Claude/claude_desktop_config.json',
  servers: [server('notes')]
});
const notThere = source('cursor', 'Cursor', { path: '/home/ada/.cursor/mcp.json', exists: false });
const unread = (kind: ImportSource['kind'], label: string, path?: string): ImportSource =>
  source(kind, label, {
    ...(path !== undefined && { path }),
    error: `${path ?? label} is not a config Taskdesk can read: Comma expected at line 1, column 40. Nothing was imported from it.`
  });

describe('the heading of a look at a config that could not be read', () => {
  it('says it could not read the only config there, rather than counting it as one looked in', () => {
    assert.equal(foundWords([notThere, unread('pasted', 'Pasted JSON')]), 'Could not read the pasted text.');
    // A config file chosen in the page has no path: its name is its label.
    assert.equal(
      foundWords([notThere, unread('file', 'claude_desktop_config.json')]),
      'Could not read claude_desktop_config.json.'
    );
    assert.equal(
      foundWords([notThere, unread('file', 'Config file', '/work/site/mcp.json')]),
      'Could not read /work/site/mcp.json.'
    );
    assert.equal(
      foundWords([unread('file', 'broken.json'), unread('pasted', 'Pasted JSON')]),
      'Could not read 2 configs.'
    );
  });

  it('counts only the configs it read, and says apart what it could not read', () => {
    assert.equal(
      foundWords([claude, notThere, unread('pasted', 'Pasted JSON')]),
      'Found 1 server to import in 1 config. Could not read the pasted text.'
    );
    assert.equal(
      foundWords([source('cursor', 'Cursor', { path: '/home/ada/.cursor/mcp.json' }), unread('file', 'broken.json')]),
      'Found no servers to import in 1 config. Could not read broken.json.'
    );
  });
});

const read = (parts: readonly ResultPart[]) =>
  parts.map((part) => (typeof part === 'string' ? part : `[${part.name}]`)).join('');

describe('the line of what an import from a config file chosen did', () => {
  it('names the file it came from', () => {
    const from = 'claude_desktop_config.json';
    assert.equal(
      read(
        importedWords(
          [
            { id: 'task-tools', name: 'task-tools', state: { is: 'left' } },
            { id: 'echo-two', name: 'echo-two', state: { is: 'left' } }
          ],
          from
        )
      ),
      'Imported [task-tools] and [echo-two] from claude_desktop_config.json.'
    );
    assert.equal(
      read(importedWords([{ id: 'notes', name: 'notes', state: { is: 'connected' } }], from)),
      'Imported [notes] from claude_desktop_config.json; it is connected.'
    );
    assert.equal(
      read(
        importedWords(
          [
            { id: 'notes', name: 'notes', state: { is: 'connected' } },
            { id: 'docs', name: 'docs', state: { is: 'left' } }
          ],
          from
        )
      ),
      'Imported 2 servers from claude_desktop_config.json. Connected: [notes]. Not connected: [docs].'
    );
    assert.equal(read(importedWords([], from)), 'Nothing was imported from claude_desktop_config.json.');
  });
});

describe('why a config file chosen is too big to read', () => {
  it('says its size and the most Taskdesk reads, in megabytes', () => {
    assert.equal(tooBigWords(2_456_000, 1_000_000), 'It is 2.5 MB; Taskdesk reads a config file of at most 1 MB.');
    // Just over the limit: rounded up, it does not read as the limit itself.
    assert.equal(tooBigWords(1_000_001, 1_000_000), 'It is 1.1 MB; Taskdesk reads a config file of at most 1 MB.');
    assert.equal(tooBigWords(12_000_000, 1_000_000), 'It is 12 MB; Taskdesk reads a config file of at most 1 MB.');
  });
});
