import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
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

  let llm: FakeOpenAIServer | undefined;
  after(async () => {
    await d?.close();
    await llm?.close();
  });

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

  it('starts the picker on the first provider that is not failing, and runs the request there when approved', async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    // After the failing one in the person's order: under "ask", Taskdesk's draft passes over the first.
    await d.fixture.host.call('providers.save', {
      id: 'working',
      name: 'Working',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    llm.enqueue({ kind: 'text', tokens: ['Hi', ' there'] });
    const reply = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .catch((error: unknown) => error);
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Say hello').waitFor();
    await approval
      .getByText(
        'Working · fake-small — instead of Broken local · gpt-test, whose last call failed: the first provider that is not failing'
      )
      .waitFor();
    assert.equal(await approval.getByLabel('Provider').inputValue(), 'working');
    assert.equal(await approval.getByLabel('Model').inputValue(), 'fake-small');
    assert.equal(await approval.locator('.provider-failing').count(), 0, 'the provider chosen does not fail');

    await approval.getByRole('button', { name: 'Approve' }).click();
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.getByRole('button', { name: 'Send answer' }).click();
    const answered = await reply;
    assert.equal((answered as { model?: string }).model, 'fake-small');
    assert.equal(llm.chatRequests.length, 1, 'the request ran on the provider that answers');
    // Approved as it stood: not the person's change, and the audit log says why that provider.
    const entries = await d.fixture.host.call('audit.read', { serverId: 'p', type: 'sampling.request' });
    const onWorking = entries.filter((entry) => entry.detail?.providerId === 'working');
    assert.equal(onWorking.length, 1);
    const approved = onWorking[0]!.detail!;
    assert.equal(approved.decision, 'approved');
    assert.equal(approved.changed, undefined);
    assert.match(String(approved.reason), /^instead of Broken local · gpt-test, whose last call failed/);
    assert.deepEqual(d.pageErrors, []);
  });
});
