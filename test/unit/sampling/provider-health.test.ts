import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { ProviderRegistry } from '../../../app/sampling/provider-registry.js';

const local = { id: 'local', name: 'Local', baseURL: 'http://127.0.0.1:9/v1', models: [{ name: 'm' }] };
const healthOf = async (registry: ProviderRegistry) => (await registry.views()).find((p) => p.id === 'local')?.health;

describe('how a provider has been answering (ProviderRegistry.answered)', () => {
  it('is unknown until called, then says since when it answers or fails; calls alike in a row change nothing', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore());
    await registry.add(local);
    assert.equal(await healthOf(registry), undefined, 'nothing known before a call');

    assert.equal(
      registry.answered(
        'local',
        'assistant',
        '2026-12-05T10:00:00.000Z',
        registry.callStarted('local'),
        'Local rejected the key (401).'
      ),
      true
    );
    assert.deepEqual(await healthOf(registry), {
      ok: false,
      since: '2026-12-05T10:00:00.000Z',
      via: 'assistant',
      message: 'Local rejected the key (401).'
    });
    // The same failure again: nothing for the windows to hear.
    assert.equal(
      registry.answered(
        'local',
        'sampling',
        '2026-12-05T10:01:00.000Z',
        registry.callStarted('local'),
        'Local rejected the key (401).'
      ),
      false
    );
    // Another failure: told, still failing since the first.
    assert.equal(
      registry.answered(
        'local',
        'sampling',
        '2026-12-05T10:02:00.000Z',
        registry.callStarted('local'),
        'Local is not running.'
      ),
      true
    );
    assert.deepEqual(await healthOf(registry), {
      ok: false,
      since: '2026-12-05T10:00:00.000Z',
      via: 'sampling',
      message: 'Local is not running.'
    });
    // It answers: told, answering since then; more answers change nothing.
    assert.equal(registry.answered('local', 'test', '2026-12-05T10:03:00.000Z', registry.callStarted('local')), true);
    assert.deepEqual(await healthOf(registry), { ok: true, since: '2026-12-05T10:03:00.000Z', via: 'test' });
    assert.equal(
      registry.answered('local', 'assistant', '2026-12-05T10:04:00.000Z', registry.callStarted('local')),
      false
    );
    assert.equal(
      registry.answered('gone', 'assistant', '2026-12-05T10:04:00.000Z', registry.callStarted('gone')),
      false,
      'an unknown provider'
    );
  });

  it('forgets it when the address or the key changes, the key is deleted or the provider removed', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore());
    await registry.add(local);
    registry.answered('local', 'test', '2026-12-05T10:00:00.000Z', registry.callStarted('local'));
    await registry.update({ ...local, name: 'Renamed' });
    assert.equal((await healthOf(registry))?.ok, true, 'a new name says nothing of its answers');
    await registry.update({ ...local, baseURL: 'http://127.0.0.1:10/v1' });
    assert.equal(await healthOf(registry), undefined, 'another address');

    registry.answered('local', 'test', '2026-12-05T10:00:00.000Z', registry.callStarted('local'));
    await registry.update({ ...local, baseURL: 'http://127.0.0.1:10/v1', apiKey: 'sk-new' });
    assert.equal(await healthOf(registry), undefined, 'another key');

    registry.answered('local', 'test', '2026-12-05T10:00:00.000Z', registry.callStarted('local'));
    await registry.clearKey('local');
    assert.equal(await healthOf(registry), undefined, 'its key deleted');

    registry.answered('local', 'test', '2026-12-05T10:00:00.000Z', registry.callStarted('local'));
    await registry.remove('local');
    await registry.add(local);
    assert.equal(await healthOf(registry), undefined, 'removed, then added again under its id');

    // A call that began before such a change says nothing when it ends.
    const started = registry.callStarted('local');
    await registry.update({ ...local, apiKey: 'sk-right' });
    assert.equal(
      registry.answered('local', 'test', '2026-12-05T10:05:00.000Z', started, 'rejected the key (401)'),
      false
    );
    assert.equal(await healthOf(registry), undefined, 'what the old key met is not the new key’s');
  });
});
