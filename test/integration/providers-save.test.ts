import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HostError } from '../../app/core/errors.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const KEY = 'sk-SECRET-123';

/** The params of a save, as the Desk's form sends them. */
function provider(id: string, name: string, baseURL: string, extra: Record<string, unknown> = {}) {
  return { id, name, baseURL, models: [], ...extra };
}

describe('providers.save: adding never replaces, and a stored key stays with the address it was entered for', () => {
  /** The service the key was entered for. */
  let cloud: FakeOpenAIServer;
  /** Another address, which must never see that key. */
  let other: FakeOpenAIServer;
  let keys: InMemoryKeyStore;
  let fixture: InMemoryHostFixture;

  before(async () => {
    cloud = await FakeOpenAIServer.start({ models: ['fake-small'], apiKey: KEY });
    other = await FakeOpenAIServer.start({ models: ['other-model'] });
    // A key left under an id no provider has (a settings file lost, say): no provider added later inherits it.
    keys = new InMemoryKeyStore({ ghost: 'sk-orphan-456' });
    fixture = await startHostWith({}, { keyStore: keys });
    await fixture.host.call('providers.save', provider('cloud', 'My cloud', cloud.baseURL, { apiKey: KEY }));
  });
  after(async () => {
    await fixture?.dispose();
    await cloud?.close();
    await other?.close();
  });

  it('refuses to add under an id in use, naming the provider on the Id field; nothing changes', async () => {
    const { host } = fixture;
    await assert.rejects(
      host.call('providers.save', provider('cloud', 'Other thing', other.baseURL)),
      (error: unknown) => {
        assert.ok(error instanceof HostError);
        assert.equal(error.code, -32602);
        const message = 'Id already used by My cloud: choose another, or edit that provider.';
        assert.equal(error.message, message);
        assert.deepEqual(error.data, { fields: { id: message } });
        return true;
      }
    );
    // The same when the caller says it adds.
    await assert.rejects(
      host.call('providers.save', { ...provider('cloud', 'Other thing', other.baseURL), mode: 'add' }),
      /Id already used by My cloud/
    );
    const [kept] = await host.call('providers.list', {});
    assert.deepEqual(kept, { id: 'cloud', name: 'My cloud', baseURL: cloud.baseURL, models: [], hasKey: true });
    assert.deepEqual(await host.call('providers.test', { providerId: 'cloud' }), { ok: true, models: ['fake-small'] });
    assert.equal(other.requests.length, 0, 'nothing went to the other address');
  });

  it('refuses to update a provider that is not there', async () => {
    await assert.rejects(
      fixture.host.call('providers.save', { ...provider('nobody', 'Nobody', other.baseURL), mode: 'update' }),
      /No provider nobody/
    );
    assert.equal((await fixture.host.call('providers.list', {})).length, 1);
  });

  it('adds without the key an earlier provider left under the same id', async () => {
    const added = await fixture.host.call('providers.save', provider('ghost', 'Ghost', other.baseURL));
    assert.equal(added.hasKey, false);
    assert.equal(await keys.get('ghost'), undefined);
    await fixture.host.call('providers.remove', { providerId: 'ghost' });
  });

  it('keeps the key on an update within its origin: another path, name or models', async () => {
    const saved = await fixture.host.call('providers.save', {
      ...provider('cloud', 'My cloud (team)', `${cloud.baseURL}/`),
      mode: 'update'
    });
    assert.equal(saved.hasKey, true);
    assert.equal(saved.keyDroppedFor, undefined);
    assert.equal(await keys.get('cloud'), KEY);
  });

  it('deletes the key when an update moves the provider to another origin without a new one, and audits it', async () => {
    const { host } = fixture;
    const saved = await host.call('providers.save', {
      ...provider('cloud', 'My cloud (team)', other.baseURL),
      mode: 'update'
    });
    assert.equal(saved.hasKey, false);
    assert.equal(saved.keyDroppedFor, new URL(cloud.baseURL).origin);
    assert.equal(await keys.get('cloud'), undefined);
    assert.deepEqual(await host.call('providers.test', { providerId: 'cloud' }), { ok: true, models: ['other-model'] });
    assert.deepEqual(
      other.requests.map((request) => request.authorization),
      [undefined],
      'the new address got no key'
    );
    const [dropped] = await host.call('audit.read', { type: 'provider.key-dropped' });
    assert.deepEqual(dropped?.detail, {
      providerId: 'cloud',
      keyOrigin: new URL(cloud.baseURL).origin,
      baseURL: other.baseURL
    });
    const [lastSave] = await host.call('audit.read', { type: 'provider.saved', limit: 1 });
    assert.deepEqual(lastSave?.detail, {
      providerId: 'cloud',
      name: 'My cloud (team)',
      mode: 'update',
      baseURL: other.baseURL,
      hasKey: false,
      keyDroppedFor: new URL(cloud.baseURL).origin
    });
  });

  it('takes a new key sent with the move, for the new origin', async () => {
    const saved = await fixture.host.call('providers.save', {
      ...provider('cloud', 'My cloud', cloud.baseURL, { apiKey: KEY }),
      mode: 'update'
    });
    assert.equal(saved.hasKey, true);
    assert.equal(saved.keyDroppedFor, undefined);
    assert.equal(await keys.get('cloud'), KEY);
  });
});
