import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportedServer, ImportSource } from '../../../app/contract/server-settings.js';
import { foundWords } from '../../../renderer/servers/import-words.js';

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
