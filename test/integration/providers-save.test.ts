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
    // Its model listed by hand: the save asks the server nothing (see the next describe).
    await fixture.host.call(
      'providers.save',
      provider('cloud', 'My cloud', cloud.baseURL, { apiKey: KEY, models: [{ name: 'fake-small' }] })
    );
    assert.equal(cloud.requests.length, 0, 'a save with its models listed asks the provider nothing');
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
    assert.deepEqual(kept, {
      id: 'cloud',
      name: 'My cloud',
      baseURL: cloud.baseURL,
      models: [{ name: 'fake-small' }],
      hasKey: true
    });
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
    // Saved with no model, it was asked for its models: without the orphan key.
    assert.deepEqual(added.modelListing, { ok: true, models: ['other-model'] });
    assert.equal(other.requests.at(-1)?.authorization, undefined);
    assert.equal(await keys.get('ghost'), undefined);
    await fixture.host.call('providers.remove', { providerId: 'ghost' });
  });

  it('keeps the key on an update within its origin: another path, name or models', async () => {
    const saved = await fixture.host.call('providers.save', {
      ...provider('cloud', 'My cloud (team)', `${cloud.baseURL}/`, { models: [{ name: 'fake-small' }] }),
      mode: 'update'
    });
    assert.equal(saved.hasKey, true);
    assert.equal(saved.keyDroppedFor, undefined);
    assert.equal(await keys.get('cloud'), KEY);
  });

  it('deletes the key when an update moves the provider to another origin without a new one, and audits it', async () => {
    const { host } = fixture;
    const asked = other.requests.length;
    const saved = await host.call('providers.save', {
      ...provider('cloud', 'My cloud (team)', other.baseURL, { models: [{ name: 'fake-small' }] }),
      mode: 'update'
    });
    assert.equal(other.requests.length, asked, 'its models were listed: the new address was asked nothing');
    assert.equal(saved.hasKey, false);
    assert.equal(saved.keyDroppedFor, new URL(cloud.baseURL).origin);
    assert.equal(await keys.get('cloud'), undefined);
    assert.deepEqual(await host.call('providers.test', { providerId: 'cloud' }), { ok: true, models: ['other-model'] });
    assert.deepEqual(
      other.requests.map((request) => request.authorization),
      [undefined, undefined],
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
      ...provider('cloud', 'My cloud', cloud.baseURL, { apiKey: KEY, models: [{ name: 'fake-small' }] }),
      mode: 'update'
    });
    assert.equal(saved.hasKey, true);
    assert.equal(saved.keyDroppedFor, undefined);
    assert.equal(await keys.get('cloud'), KEY);
  });
});

describe('providers.save with no model listed: the provider is asked for its models, and the save holds whatever it answers', () => {
  let cloud: FakeOpenAIServer;
  let keys: InMemoryKeyStore;
  let fixture: InMemoryHostFixture;

  before(async () => {
    cloud = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'], apiKey: KEY });
    keys = new InMemoryKeyStore();
    fixture = await startHostWith({}, { keyStore: keys });
  });
  after(async () => {
    await fixture?.dispose();
    await cloud?.close();
  });

  it('lists the models the provider names, with its key, the first as the default; the list and the audit log say so', async () => {
    const { host } = fixture;
    const told = new Promise<unknown>((resolve) => {
      const off = host.on('providers.changed', ({ providers }) => {
        if (!providers.some((p) => p.id === 'cloud')) return;
        off();
        resolve(providers);
      });
    });
    const saved = await host.call('providers.save', provider('cloud', 'My cloud', cloud.baseURL, { apiKey: KEY }));
    // Asked as Test connection asks, it is answering as after one.
    const health = { ok: true, since: saved.health?.since ?? '', via: 'test' };
    const listed = {
      id: 'cloud',
      name: 'My cloud',
      baseURL: cloud.baseURL,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-small',
      hasKey: true,
      health
    };
    assert.deepEqual(saved, { ...listed, modelListing: { ok: true, models: ['fake-small', 'fake-large'] } });
    assert.deepEqual(await host.call('providers.list', {}), [listed]);
    assert.deepEqual(await told, [listed], 'windows are told the provider with its models');
    assert.deepEqual(
      cloud.requests.map((request) => [request.path, request.authorization]),
      [['/v1/models', `Bearer ${KEY}`]]
    );
    const [audited] = await host.call('audit.read', { type: 'provider.saved', limit: 1 });
    assert.deepEqual(audited?.detail, {
      providerId: 'cloud',
      name: 'My cloud',
      mode: 'add',
      baseURL: cloud.baseURL,
      hasKey: true,
      modelsListed: 2
    });
  });

  it('keeps a default model set by hand, and lists again on a save that leaves the list empty', async () => {
    const saved = await fixture.host.call('providers.save', {
      ...provider('cloud', 'My cloud', cloud.baseURL, { defaultModel: 'fake-large' }),
      mode: 'update'
    });
    assert.deepEqual(saved.models, [{ name: 'fake-small' }, { name: 'fake-large' }]);
    assert.equal(saved.defaultModel, 'fake-large');
    assert.equal(saved.hasKey, true, 'the stored key was kept, and used');
    assert.equal(cloud.requests.at(-1)?.authorization, `Bearer ${KEY}`);
  });

  it('asks nothing of a provider whose models are listed by hand', async () => {
    const asked = cloud.requests.length;
    const saved = await fixture.host.call('providers.save', {
      ...provider('cloud', 'My cloud', cloud.baseURL, { models: [{ name: 'fake-large', ratings: { cost: 0.5 } }] }),
      mode: 'update'
    });
    assert.deepEqual(saved.models, [{ name: 'fake-large', ratings: { cost: 0.5 } }]);
    assert.equal(saved.modelListing, undefined);
    assert.equal(cloud.requests.length, asked);
  });

  it('keeps the save when the provider refuses: no model, and why, in words without the key', async () => {
    const { host } = fixture;
    const saved = await host.call('providers.save', provider('keyless', 'Keyless', cloud.baseURL));
    assert.deepEqual(saved.models, []);
    assert.equal(saved.defaultModel, undefined);
    const listing = saved.modelListing;
    assert.ok(listing && !listing.ok, JSON.stringify(listing));
    assert.equal(listing.kind, 'auth');
    assert.equal(listing.status, 401);
    assert.match(listing.message, /rejected the API key \(401\)/);
    assert.ok(!JSON.stringify(saved).includes(KEY));
    const { health, ...kept } = (await host.call('providers.list', {})).find((p) => p.id === 'keyless')!;
    assert.deepEqual(kept, { id: 'keyless', name: 'Keyless', baseURL: cloud.baseURL, models: [], hasKey: false });
    // Asked as Test connection asks, it is failing as after one (its card says so).
    assert.equal(health?.ok, false);
    assert.equal(health?.via, 'test');
    assert.match(health?.message ?? '', /rejected the API key \(401\)/);
  });

  it('keeps the save when the provider cannot be reached, saying so', async () => {
    const { host } = fixture;
    // Nothing listens on port 9 here. (Node's fetch refuses it before it connects, as one of the
    // fetch spec's "bad ports"; the provider clients' fetch does not, so a model server may use it.)
    const REFUSED = 'Could not connect to Nowhere (127.0.0.1:9). Is the server running and the base URL right?';
    const saved = await host.call('providers.save', provider('nowhere', 'Nowhere', 'http://127.0.0.1:9/v1'));
    assert.deepEqual(saved.models, []);
    assert.deepEqual(saved.modelListing, {
      ok: false,
      kind: 'unreachable',
      message: REFUSED
    });
    assert.ok((await host.call('providers.list', {})).some((p) => p.id === 'nowhere'));
    const [audited] = await host.call('audit.read', { type: 'provider.saved', limit: 1 });
    assert.equal(audited?.detail?.modelsListed, undefined);
    // Why, kept in the audit log: the card says it only until the page is reloaded.
    assert.equal(audited?.detail?.modelsNotListed, REFUSED);
  });
});
