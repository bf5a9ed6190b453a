import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { saveUnreachableProvider } from '../support/assistant-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * An approval card names the provider and model it would run on; when that provider's last call
 * failed (as LLM providers shows it), the card says so, with the way to its card, before the
 * person approves a run bound to fail.
 */
describe('an approval card on a failing provider, in headless Chromium against the real core', () => {
  const peer: PeerServer = peerServer('approval-peer');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({ p: peer }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await saveUnreachableProvider(d.fixture.host);
    await d.fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask' } });
    const tested = await d.fixture.host.call('providers.test', { providerId: 'broken' });
    assert.equal(tested.ok, false);
  });

  after(() => d?.close());

  it('says beside the provider and model that the provider’s last call failed, with a link to its card', async () => {
    const reply = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .catch((error: unknown) => error);
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText(/^Broken local · gpt-test — /).waitFor();
    const warning = approval.locator('.provider-failing');
    await warning.waitFor();
    assert.match(
      (await warning.textContent()) ?? '',
      /^Broken local’s last call failed \(failing since .+\): .+ Open Broken local in LLM providers\.$/
    );
    await warning.getByRole('link', { name: 'Open Broken local in LLM providers' }).click();
    await page.waitForURL(/#providers\/broken$/);
    await page.goBack();
    await approval.getByRole('button', { name: 'Reject' }).click();
    await reply;
    assert.deepEqual(d.pageErrors, []);
  });
});
