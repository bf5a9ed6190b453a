import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostEvents } from '../../app/contract/host-api.js';
import { unaskedRunNotice } from '../../app/host/unasked-run-notice.js';

const failure = {
  serverId: 'a',
  serverName: 'Server a',
  providerId: 'broken local/1',
  providerName: 'Broken local',
  model: 'gpt-test',
  message: 'Could not connect to Broken local (127.0.0.1:9). Check the base URL'
};

describe('the notice of a model run made without asking that failed', () => {
  it('says what failed and where to look, and links those screens in its words’ order', () => {
    const notice = unaskedRunNotice(failure);
    assert.equal(
      notice.message,
      'A model request from Server a ran without asking (its policy is Run without asking) and failed on ' +
        'Broken local (gpt-test): Could not connect to Broken local (127.0.0.1:9). Check the base URL. ' +
        'Server a was told only that the model could not be run. ' +
        'Check Broken local under LLM providers, or set Server a to Ask me first on the Servers screen.'
    );
    assert.deepEqual(notice.links, [
      // The provider's own card, its id made fit for an address.
      { label: 'Open Broken local in LLM providers', href: '#providers/broken%20local%2F1' },
      { label: 'Open the Servers screen', href: '#servers' }
    ]);
  });

  it('links the providers screen instead of a card that is gone, when the provider was removed', () => {
    assert.deepEqual(unaskedRunNotice(failure, false).links, [
      { label: 'Open LLM providers', href: '#providers' },
      { label: 'Open the Servers screen', href: '#servers' }
    ]);
  });

  it('is a host warning the contract takes, its links kept', () => {
    const warning = { ...unaskedRunNotice(failure), id: 'w-1' };
    assert.deepEqual(HostEvents['store.warning'].parse(warning), warning);
  });

  it('takes links to Desk screens only, never to a page outside the Desk', () => {
    const schema = HostEvents['store.warning'];
    for (const href of ['https://example.com/', 'javascript:alert(1)', 'providers', '#', '# providers'])
      assert.equal(
        schema.safeParse({ message: 'm', links: [{ label: 'Go', href }] }).success,
        false,
        `took ${JSON.stringify(href)}`
      );
    assert.equal(schema.safeParse({ message: 'm', links: [{ label: 'Go', href: '#providers/local' }] }).success, true);
    // A warning without links is as it was.
    assert.deepEqual(schema.parse({ message: 'm', id: 'w-2' }), { message: 'm', id: 'w-2' });
  });
});
