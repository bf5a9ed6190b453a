import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { saveUnreachableProvider } from '../support/assistant-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import type { InboxItem } from '../../app/contract/host-api.js';
import { recordSaid, said } from './live-region.js';
import { draftKept } from './restart-fixture.js';
import { passUndoWindow } from './undo-window.js';

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
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    d = await startDesk(
      { p: peer },
      { host: { keyStore: new InMemoryKeyStore() }, beforeLoad: (opened) => opened.clock.install() }
    );
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
    await passUndoWindow(page);
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
