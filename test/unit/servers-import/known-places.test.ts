import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownFileAt, knownFiles } from '../../../app/servers-import/known-places.js';
import { parseJsonc } from '../../../app/servers-import/jsonc.js';

describe('where other hosts keep their MCP servers', () => {
  it('names Claude Desktop, Cursor and VS Code files at each platform’s own places', () => {
    const paths = (platform: NodeJS.Platform, home: string, appData?: string) =>
      knownFiles({ platform, home, ...(appData && { appData }) }).map((file) => `${file.kind} ${file.path}`);
    assert.deepEqual(paths('darwin', '/Users/ada'), [
      'claude-desktop /Users/ada/Library/Application Support/Claude/claude_desktop_config.json',
      'cursor /Users/ada/.cursor/mcp.json',
      'vscode-user /Users/ada/Library/Application Support/Code/User/settings.json',
      'vscode-user /Users/ada/Library/Application Support/Code/User/mcp.json'
    ]);
    assert.deepEqual(paths('linux', '/home/ada'), [
      'claude-desktop /home/ada/.config/Claude/claude_desktop_config.json',
      'cursor /home/ada/.cursor/mcp.json',
      'vscode-user /home/ada/.config/Code/User/settings.json',
      'vscode-user /home/ada/.config/Code/User/mcp.json'
    ]);
    // $XDG_CONFIG_HOME, where Electron apps keep their settings when it is set (only an absolute one).
    assert.deepEqual(
      knownFiles({ platform: 'linux', home: '/home/ada', configHome: '/data/ada/config' })
        .filter((file) => file.kind !== 'cursor')
        .map((file) => file.path),
      [
        '/data/ada/config/Claude/claude_desktop_config.json',
        '/data/ada/config/Code/User/settings.json',
        '/data/ada/config/Code/User/mcp.json'
      ]
    );
    assert.equal(
      knownFiles({ platform: 'linux', home: '/home/ada', configHome: 'relative/config' })[0]!.path,
      '/home/ada/.config/Claude/claude_desktop_config.json'
    );
    assert.equal(
      knownFiles({ platform: 'darwin', home: '/Users/ada', configHome: '/Users/ada/.config' })[0]!.path,
      '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json'
    );
    assert.deepEqual(paths('win32', 'C:\\Users\\ada', 'C:\\Users\\ada\\AppData\\Roaming'), [
      'claude-desktop C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'cursor C:\\Users\\ada\\.cursor\\mcp.json',
      'vscode-user C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\settings.json',
      'vscode-user C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json'
    ]);
    assert.deepEqual(
      knownFiles({ platform: 'linux', home: '/home/ada' }, ['/work/app'])
        .slice(4)
        .map((file) => [file.kind, file.path, file.workspaceFolder]),
      [
        ['cursor-project', '/work/app/.cursor/mcp.json', '/work/app'],
        ['vscode-workspace', '/work/app/.vscode/mcp.json', '/work/app']
      ]
    );
  });

  it('reads only those files when asked to import from a path', () => {
    const places = { platform: 'linux' as const, home: '/home/ada' };
    assert.equal(knownFileAt(places, '/home/ada/.cursor/mcp.json')?.kind, 'cursor');
    assert.equal(knownFileAt(places, '/srv/project/.vscode/mcp.json')?.kind, 'vscode-workspace');
    assert.equal(knownFileAt(places, '/etc/passwd'), undefined);
    assert.equal(knownFileAt(places, '/home/ada/.ssh/config.json'), undefined);
  });
});

describe('JSONC, as VS Code writes it', () => {
  it('takes comments and trailing commas, keeps strings that look like comments, and says where a mistake is', () => {
    assert.deepEqual(
      parseJsonc('{\n  // a comment\n  "a": [1, 2,], /* another */ "b": "//kept", "c": "/* kept */",\n}'),
      {
        a: [1, 2],
        b: '//kept',
        c: '/* kept */'
      }
    );
    assert.throws(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}'), /at line 3, column 3/);
  });
});
