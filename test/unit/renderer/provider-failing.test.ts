import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ProviderView } from '../../../app/contract/providers.js';
import { providerFailingText } from '../../../renderer/inbox/provider-failing-words.js';

const provider = (health?: ProviderView['health']): ProviderView => ({
  id: 'broken',
  name: 'Broken local',
  baseURL: 'http://127.0.0.1:9/v1',
  models: [{ name: 'gpt-test' }],
  hasKey: false,
  ...(health && { health })
});

const now = new Date('2026-12-03T10:06:00.000Z');

describe('what an approval card says of a failing provider', () => {
  it('says the provider’s last call failed, since when and why, in a short line', () => {
    const text = providerFailingText(
      provider({ ok: false, since: '2026-12-03T10:05:00.000Z', via: 'test', message: 'Could not connect' }),
      now
    );
    assert.match(text ?? '', /^Broken local’s last call failed \(failing since .+\): Could not connect\.$/);
    const long = providerFailingText(
      provider({ ok: false, since: '2026-12-03T10:05:00.000Z', via: 'sampling', message: 'x'.repeat(500) }),
      now
    );
    assert.ok((long ?? '').length < 300);
  });

  it('names the provider once, where its failure (a model file’s) starts with its name too', () => {
    const text = providerFailingText(
      provider({
        ok: false,
        since: '2026-12-03T10:05:00.000Z',
        via: 'sampling',
        message: 'Broken local: The model file /m/x.gguf was not found.'
      }),
      now
    );
    assert.match(
      text ?? '',
      /^Broken local’s last call failed \(failing since .+\): The model file \/m\/x\.gguf was not found\.$/
    );
  });

  it('says nothing of a provider that answers, or was not called yet', () => {
    assert.equal(
      providerFailingText(provider({ ok: true, since: '2026-12-03T10:05:00.000Z', via: 'test' }), now),
      undefined
    );
    assert.equal(providerFailingText(provider(), now), undefined);
    assert.equal(providerFailingText(undefined, now), undefined);
  });
});
