import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { FileKeyStore } from '../../app/store/file-key-store.js';
import { addDemoServerIfNone } from '../../app/cli/demo-server.js';
import { tempDir } from '../support/host-fixture.js';

describe('host settings', () => {
  it('hides secrets in the server list the UI sees', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      await host.call('servers.add', {
        id: 'cli',
        name: 'CLI',
        transport: { type: 'stdio', command: 'mcp-thing', args: ['--api-key', 'sk-123', '--token=abc', '--verbose'] },
        autoConnect: false
      });
      await host.call('servers.add', {
        id: 'web',
        name: 'Web',
        transport: { type: 'http', url: 'https://user:pw@mcp.example/mcp?key=sk-456' },
        autoConnect: false
      });
      const text = JSON.stringify(await host.call('servers.list', {}));
      for (const secret of ['sk-123', 'abc', 'sk-456', 'pw'])
        assert.doesNotMatch(text, new RegExp(`\\b${secret}\\b`), secret);
      assert.match(text, /--verbose/);
      assert.match(text, /https:\/\/mcp\.example\/mcp/);
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('forgets a removed server\'s sampling policy, so a new server under its id starts at "ask"', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      const config = {
        id: 'reused',
        name: 'First',
        transport: { type: 'stdio' as const, command: 'first' },
        autoConnect: false
      };
      await host.call('servers.add', config);
      await host.call('sampling.setPolicy', { serverId: 'reused', policy: { mode: 'auto', reviewCompletion: false } });
      await host.call('servers.remove', { serverId: 'reused' });
      await host.call('servers.add', { ...config, name: 'Second', transport: { type: 'stdio', command: 'second' } });
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'reused' })).mode, 'ask');
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('keeps sampling policies of servers named like Object members (constructor, toString, __proto__) apart', async () => {
    const data = tempDir();
    const ids = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'plain'];
    let host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      for (const id of ids)
        await host.call('servers.add', { id, name: id, transport: { type: 'stdio', command: id }, autoConnect: false });
      // Nothing saved yet: every one of them has the default, not whatever an object inherits.
      for (const id of ids) assert.equal((await host.call('sampling.getPolicy', { serverId: id })).mode, 'ask', id);
      await host.call('sampling.setPolicy', { serverId: 'constructor', policy: { mode: 'refuse' } });
      await host.call('sampling.setPolicy', {
        serverId: '__proto__',
        policy: { mode: 'auto', reviewCompletion: false }
      });
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'toString' })).mode, 'ask');
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'plain' })).mode, 'ask');
      await host.close();
      // Saved and read back as plain keys.
      host = createHost({ dataDir: data.dir, autoConnect: false });
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'constructor' })).mode, 'refuse');
      assert.equal((await host.call('sampling.getPolicy', { serverId: '__proto__' })).mode, 'auto');
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'toString' })).mode, 'ask');
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'plain' })).mode, 'ask');
      await host.call('servers.remove', { serverId: 'constructor' });
      assert.equal((await host.call('sampling.getPolicy', { serverId: 'constructor' })).mode, 'ask');
      assert.equal((await host.call('sampling.getPolicy', { serverId: '__proto__' })).mode, 'auto');
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('offers the demo server on a first launch only: once removed, it stays removed', async () => {
    const data = tempDir();
    // Stands in for server-everything: a stdio command that exits at once, so connecting fails fast.
    const demo = {
      id: 'everything',
      name: 'Everything (demo)',
      transport: { type: 'stdio' as const, command: process.execPath, args: ['-e', ''] },
      autoConnect: false
    };
    try {
      const first = createHost({ dataDir: data.dir, autoConnect: false });
      assert.equal(first.serverListSaved, false);
      assert.equal(await addDemoServerIfNone(first, demo), true);
      assert.deepEqual(
        (await first.call('servers.list', {})).map((server) => server.id),
        ['everything']
      );
      // Marked as Taskdesk's own addition (the Desk's first run tells it so, not by its id), kept
      // through an edit; a server the person adds is not, whatever it says of itself.
      const [added] = await first.call('servers.list', {});
      assert.equal(added!.addedBy, 'taskdesk');
      const { id: _id, editable: _editable, ...settings } = await first.call('servers.get', { serverId: 'everything' });
      await first.call('servers.update', {
        serverId: 'everything',
        settings: { ...settings, name: 'Everything, renamed' }
      });
      assert.equal((await first.call('servers.list', {}))[0]!.addedBy, 'taskdesk');
      await first.call('servers.add', {
        id: 'mine',
        name: 'Mine',
        transport: { type: 'stdio', command: 'mcp-thing' },
        addedBy: 'taskdesk',
        autoConnect: false
      });
      assert.equal((await first.call('servers.list', {})).find((server) => server.id === 'mine')!.addedBy, undefined);
      await first.call('servers.remove', { serverId: 'mine' });
      await first.call('servers.remove', { serverId: 'everything' });
      await first.close();
      const second = createHost({ dataDir: data.dir, autoConnect: false });
      assert.equal(second.serverListSaved, true, 'an empty list the user left is a saved list');
      assert.equal(await addDemoServerIfNone(second, demo), false);
      assert.deepEqual(await second.call('servers.list', {}), []);
      await second.close();
    } finally {
      data.remove();
    }
  });

  it('starts with a warning when the cursor key cannot be kept, and narrows a key file others could read', async () => {
    const data = tempDir();
    try {
      // A directory where the key file should be: it can be neither read nor replaced.
      fs.mkdirSync(path.join(data.dir, 'tasks', 'cursor-key'), { recursive: true });
      const host = createHost({ dataDir: data.dir, autoConnect: false });
      assert.ok(
        host.warnings.some((warning) => /cursor-key/.test(warning.message) && /refused after/.test(warning.message)),
        JSON.stringify(host.warnings)
      );
      await host.close();
      fs.rmSync(path.join(data.dir, 'tasks', 'cursor-key'), { recursive: true });
      fs.writeFileSync(path.join(data.dir, 'tasks', 'cursor-key'), Buffer.alloc(32, 7), { mode: 0o644 });
      const second = createHost({ dataDir: data.dir, autoConnect: false });
      assert.deepEqual(second.warnings, []);
      assert.equal((fs.statSync(path.join(data.dir, 'tasks', 'cursor-key')).mode & 0o777).toString(8), '600');
      await second.close();
    } finally {
      data.remove();
    }
  });

  it('never overwrites a key file it cannot read', async () => {
    const data = tempDir();
    try {
      const keys = new FileKeyStore(data.dir);
      await keys.set('a', 'sk-a');
      assert.equal(await keys.has('constructor'), false);
      const file = path.join(data.dir, 'provider-keys.json');
      assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600');
      fs.writeFileSync(file, '{"a": "sk-a", broken');
      await assert.rejects(keys.set('b', 'sk-b'), (error: Error) => error.message.includes(file));
      assert.equal(
        fs.readFileSync(file, 'utf8'),
        '{"a": "sk-a", broken',
        'the unreadable file is left for a person to mend'
      );
    } finally {
      data.remove();
    }
  });

  it('says an unreadable file of model request settings in the words of the Servers screen, not “sampling”', async () => {
    const data = tempDir();
    try {
      fs.writeFileSync(path.join(data.dir, 'sampling-policies.json'), '{ not json');
      const host = createHost({ dataDir: data.dir, autoConnect: false });
      try {
        const [warning] = host.warnings;
        assert.equal(host.warnings.length, 1, JSON.stringify(host.warnings));
        assert.match(
          warning!.message,
          /^The saved model request settings of your servers \(each is back to Ask me first\) could not be read and was moved aside /
        );
        assert.doesNotMatch(warning!.message, /sampling polic/i);
        assert.equal((await host.call('sampling.getPolicy', { serverId: 'any' })).mode, 'ask');
      } finally {
        await host.close();
      }
    } finally {
      data.remove();
    }
  });

  it('moves a provider key file that does not parse to corrupt/ at start, with a warning naming it', async () => {
    const data = tempDir();
    try {
      const file = path.join(data.dir, 'secrets', 'provider-keys.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '{"a": "sk-a", broken', { mode: 0o600 });
      const host = createHost({ dataDir: data.dir, autoConnect: false });
      try {
        const [warning] = host.warnings;
        assert.equal(host.warnings.length, 1, JSON.stringify(host.warnings));
        assert.ok(warning!.message.includes(file), warning!.message);
        assert.match(warning!.message, /not valid JSON/);
        assert.ok(warning!.movedTo!.startsWith(path.join(data.dir, 'corrupt')));
        assert.equal(fs.readFileSync(warning!.movedTo!, 'utf8'), '{"a": "sk-a", broken', 'the bytes are kept');
        assert.ok(
          (await host.call('audit.read', {})).some((entry) => entry.type === 'store.warning'),
          'the warning is in the audit log'
        );
        const saved = await host.call('providers.save', {
          id: 'p',
          name: 'P',
          baseURL: 'http://127.0.0.1:1/v1',
          apiKey: 'sk-new-key-1234'
        });
        assert.equal(saved.hasKey, true, 'keys can be entered again');
      } finally {
        await host.close();
      }
    } finally {
      data.remove();
    }
  });
});
