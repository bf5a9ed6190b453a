import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * The Stop of a model writing an answer in the Inbox, in headless Chromium against the real core:
 * the provider on loopback streams only as the test lets it (a held stream), so the answer is
 * still being written when Stop is pressed.
 */
describe('Stop on a model writing in the Inbox', () => {
  const peer: PeerServer = peerServer('stop-peer');
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({ p: peer }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await d.fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    await d.fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('ends the generation: the request is back, saying the person stopped it, to try again', async () => {
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Tell a very long story' } }],
          maxTokens: 4000,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Tell a very long story').waitFor();
    llm.enqueue({ kind: 'hold' });
    await approval.getByRole('button', { name: 'Approve' }).click();
    await approval.waitFor({ state: 'detached' });
    const held = await llm.nextHeld();
    // The first piece is shown at once (the Desk's updates are throttled, the next may wait).
    held.push('Once upon a time', ' there was a story that went on');

    const live = page.getByRole('list', { name: 'Models writing now' });
    const writing = live.locator(`[data-live-task-id="${task.taskId}"]`);
    await writing.locator('.live-text', { hasText: 'Once upon a time' }).waitFor();
    await writing.getByRole('button', { name: 'Stop fake-small writing for Server p' }).click();

    // The provider's request is aborted: the model writes no more.
    await held.closed;
    assert.equal(held.closedByClient, true);
    await live.waitFor({ state: 'hidden' });

    // Back, saying what happened in plain words; not a provider failure, nothing sent.
    const stopped = approval.locator('.run-failed');
    await stopped.waitFor();
    assert.match(
      (await stopped.textContent()) ?? '',
      /^You stopped fake-small \(Fake LLM\) at .+, before it finished; what it had written was not sent\. Try it again, on another model or with the request changed, write the reply yourself, or reject it; Server p waits meanwhile\.$/
    );
    assert.equal(await approval.locator('.provider-failing').count(), 0, 'the provider is not said to fail');
    assert.equal(await approval.getByRole('button', { name: 'Try again' }).count(), 1);
    // The Stop went with its card: the request back took the focus.
    await page.waitForFunction(
      (id) => document.activeElement?.matches(`article[data-inbox-id="${id}"]`) === true,
      task.taskId
    );
    const waiting = await d.fixture.host.call('tasks.get', { taskId: task.taskId });
    assert.equal(waiting.task.status, 'working', 'the server still waits for the answer');

    // Tried again, it runs to its end and goes to review as any answer does.
    llm.enqueue({ kind: 'text', tokens: ['A short', ' story.'] });
    await approval.getByRole('button', { name: 'Try again' }).click();
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    const answer = review.getByLabel('Answer from fake-small (you may edit it)');
    await answer.waitFor();
    assert.equal(await answer.inputValue(), 'A short story.');
    await review.getByRole('button', { name: 'Send answer' }).click();
    const result = await peer.server.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CreateMessageResultSchema
    );
    assert.deepEqual(result.content, { type: 'text', text: 'A short story.' });
    assert.deepEqual(d.pageErrors, []);
  });
});
