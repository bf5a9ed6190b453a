import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { InboxItem } from '../../app/contract/host-api.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, said } from './live-region.js';
import { draftKept } from './restart-fixture.js';

/**
 * Model requests that came while no provider was set up wait for a person's reply; once a provider
 * that lists a model is saved, each goes to the model path as a new one would: under "Ask me
 * first", its reply card becomes the approval card, where it was, and nothing says it was withdrawn.
 */
describe('a reply card when a provider is added, in headless Chromium against the real core', () => {
  const peer: PeerServer = peerServer('added-peer');
  let d: DeskFixture;
  let page: Page;
  let llm: FakeOpenAIServer;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({ p: peer }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await d.fixture.host.call('sampling.setPolicy', {
      serverId: 'p',
      policy: { mode: 'ask', reviewCompletion: false }
    });
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  const request = (text: string) =>
    peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .catch((error: unknown) => error);

  /** The Inbox's cards in the page's order: their item ids and kinds. */
  const cards = () =>
    page
      .locator('.inbox-item')
      .evaluateAll((found) =>
        found.map((card) => [card.getAttribute('data-inbox-id'), card.className.match(/kind-([\w-]+)/)?.[1]])
      );

  it('turns each reply card into the approval card in its place, with no notice that it went', async () => {
    await recordSaid(page);
    const first = request('First question');
    const second = request('Second question');
    const replyCards = page.getByRole('article', { name: 'Server p asks for a model reply' });
    await replyCards.nth(1).waitFor();
    const firstCard = replyCards.filter({ hasText: 'First question' });
    for (const name of ['Send reply', 'Reject'])
      assert.equal(await firstCard.getByRole('button', { name }).count(), 1, name);
    const before = await cards();
    assert.deepEqual(
      before.map(([, kind]) => kind),
      ['sampling', 'sampling']
    );

    await d.fixture.host.call('providers.save', {
      id: 'local',
      name: 'Local',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    const approvals = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approvals.nth(1).waitFor();
    assert.equal(await replyCards.count(), 0);
    // Where they were: the same items, in the same order, now asking to run a model.
    assert.deepEqual(
      await cards(),
      before.map(([id]) => [id, 'sampling-approval'])
    );
    const firstApproval = approvals.filter({ hasText: 'First question' });
    for (const name of ['Approve', 'Edit request…', 'Write the reply yourself…', 'Reject'])
      assert.equal(await firstApproval.getByRole('button', { name }).count(), 1, name);
    await firstApproval.getByText(/^Local · fake-small — /).waitFor();
    // Nobody withdrew them: no notice, and nothing said of a withdrawal.
    assert.equal(await page.locator('.notice-withdrawn').count(), 0);
    assert.deepEqual(
      (await said(page)).filter((text) => /withdr/i.test(text)),
      []
    );

    // Approved, the first runs on the model; the second the person answers themselves.
    llm.enqueue({ kind: 'text', tokens: ['From', ' the model'] });
    await firstApproval.getByRole('button', { name: 'Approve' }).click();
    assert.deepEqual(((await first) as { content?: unknown }).content, { type: 'text', text: 'From the model' });
    const secondApproval = approvals.filter({ hasText: 'Second question' });
    await secondApproval.getByRole('button', { name: 'Write the reply yourself…' }).click();
    await secondApproval.getByLabel('Your reply').fill('From me');
    await secondApproval.getByRole('button', { name: 'Send reply' }).click();
    assert.deepEqual(((await second) as { content?: unknown }).content, { type: 'text', text: 'From me' });
    assert.equal(llm.chatRequests.length, 1);
    assert.equal(await page.locator('.notice-withdrawn').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps what was typed into a reply card: its approval card opens the reply form with it, and sends it', async () => {
    // No provider again: model requests wait for a person's reply.
    await d.fixture.host.call('providers.remove', { providerId: 'local' });
    await recordSaid(page);
    const plain = request('Plain question');
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Task question' } }],
          maxTokens: 10,
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    const replyCards = page.getByRole('article', { name: 'Server p asks for a model reply' });
    await replyCards.nth(1).waitFor();
    const plainCard = replyCards.filter({ hasText: 'Plain question' });
    await plainCard.getByLabel('Your reply').fill('Written by me');
    await plainCard.getByLabel('Model name').fill('me');
    // A task's request: the host keeps what was typed too (a restart brings it back).
    const kept = draftKept(page, { reply: 'For the task', model: 'human' });
    await replyCards.filter({ hasText: 'Task question' }).getByLabel('Your reply').fill('For the task');
    await kept;
    const added: InboxItem[] = [];
    const off = d.fixture.host.on('inbox.added', ({ item }) => added.push(item));

    await d.fixture.host.call('providers.save', {
      id: 'local',
      name: 'Local',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    const approvals = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approvals.nth(1).waitFor();
    off();
    // The task's approval card comes with the draft the host kept for its reply card.
    const addedFor = (taskId: string | undefined) => added.filter((item) => item.taskId === taskId);
    assert.deepEqual(
      addedFor(task.taskId).map((item) => [item.kind, item.keptDraft]),
      [['sampling-approval', { reply: 'For the task', model: 'human' }]]
    );
    assert.deepEqual(
      addedFor(undefined).map((item) => [item.kind, item.keptDraft]),
      [['sampling-approval', undefined]]
    );
    // Each opens "Write the reply yourself…" with what was typed, the focus left where it was.
    const plainApproval = approvals.filter({ hasText: 'Plain question' });
    const taskApproval = approvals.filter({ hasText: 'Task question' });
    assert.equal(await plainApproval.getByLabel('Your reply').inputValue(), 'Written by me');
    assert.equal(await plainApproval.getByLabel('Model name').inputValue(), 'me');
    assert.equal(await taskApproval.getByLabel('Your reply').inputValue(), 'For the task');
    assert.equal(await taskApproval.getByLabel('Model name').inputValue(), 'human');
    assert.equal(
      await taskApproval.getByLabel('Your reply').evaluate((element) => element === document.activeElement),
      false
    );
    // Nobody withdrew them: no notice, nothing said of a withdrawal or of what was written.
    assert.equal(await page.locator('.notice-withdrawn').count(), 0);
    assert.deepEqual(
      (await said(page)).filter((text) => /withdr|written/i.test(text)),
      []
    );

    // Sent from the approval card: the reply the person wrote goes back, and no model runs.
    const asked = llm.chatRequests.length;
    await plainApproval.getByRole('button', { name: 'Send reply' }).click();
    assert.deepEqual(await plain, {
      role: 'assistant',
      content: { type: 'text', text: 'Written by me' },
      model: 'me',
      stopReason: 'endTurn'
    });
    // Another window (this one loaded afresh) has the task's reply from the host.
    await page.reload();
    const reloaded = page.getByRole('article', { name: 'Server p asks to run a model' });
    await reloaded.waitFor();
    assert.equal(await reloaded.getByLabel('Your reply').inputValue(), 'For the task');
    await reloaded.getByRole('button', { name: 'Send reply' }).click();
    await reloaded.waitFor({ state: 'detached' });
    const result = await peer.server.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CreateMessageResultSchema
    );
    assert.deepEqual(result.content, { type: 'text', text: 'For the task' });
    assert.equal(llm.chatRequests.length, asked);
    assert.equal(await page.locator('.notice-withdrawn').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });
});
