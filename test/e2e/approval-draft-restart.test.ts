import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { INBOX_DRAFTS_FILE } from '../../app/inbox/inbox-drafts.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { inboxHolds, peerServer, type PeerServer } from '../support/host-fixture.js';
import { draftKept, restartFixture } from './restart-fixture.js';

/** Whether the field labelled `label` in `card` has the page's focus. */
const focused = (card: Locator, label: string) =>
  card.getByLabel(label).evaluate((element) => element === document.activeElement);

/** Server desk asks for a model reply as a task, the request's message being `text`; its task id. */
async function askAsTask(peer: PeerServer, text: string): Promise<string> {
  const { task } = await peer.server.request(
    {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text } }],
        systemPrompt: 'Be brief.',
        maxTokens: 20,
        task: { ttl: 3_600_000 }
      }
    },
    CreateTaskResultSchema
  );
  return task.taskId;
}

/**
 * What a person changed on a sampling approval card (the request's texts, the model to run it
 * on), or on a review card (the model's answer), is kept as what is typed into other questions
 * is: back in the card when it mounts again, and, for a task's request, after Taskdesk restarts.
 */
describe('a sampling approval or review edited before a restart, in headless Chromium against the real core', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;
  let llm: FakeOpenAIServer;

  before(async () => {
    await restart.build();
    // A real OpenAI-compatible server on loopback, across the restarts.
    llm = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'] });
  });
  after(async () => {
    await restart.close();
    await llm?.close();
  });

  /** A provider, and the policy that asks first (both kept across the restart, and by the data directory the tests share). */
  const askFirst = async (host: Host, reviewCompletion: boolean) => {
    const providers = await host.call('providers.list', {});
    if (!providers.some((provider) => provider.id === 'fake'))
      await host.call('providers.save', {
        id: 'fake',
        name: 'Fake LLM',
        baseURL: llm.baseURL,
        models: [{ name: 'fake-small' }, { name: 'fake-large' }],
        defaultModel: 'fake-small'
      });
    await host.call('sampling.setPolicy', { serverId: 'desk', policy: { mode: 'ask', reviewCompletion } });
  };

  it('brings back the request’s edits and the model chosen, without taking the focus, and approves the edited request', async () => {
    const peer = peerServer('desk-peer');
    const first = await restart.host({ desk: peer });
    await askFirst(first.host, false);
    const taskId = await askAsTask(peer, 'Say hello.');
    await inboxHolds(first.host, 1);
    const page = await restart.open(first);
    const card = page.getByRole('article', { name: 'Server desk asks to run a model' });
    await card.getByRole('button', { name: 'Edit request…' }).click();
    const kept = draftKept(page, { edits: { texts: { '0:0': 'Say goodbye.' }, model: 'fake-large' } });
    await card.getByLabel('Message 1 (user)').fill('Say goodbye.');
    await card.getByLabel('Model').fill('fake-large');
    await kept;

    // Another screen and back: the card mounts again with the edits, from the page's store.
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    await card.waitFor({ state: 'detached' });
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
    assert.equal(await card.getByLabel('Message 1 (user)').inputValue(), 'Say goodbye.');
    assert.equal(await card.getByLabel('Model').inputValue(), 'fake-large');

    // Taskdesk starts again; the server is started afresh too.
    const again = peerServer('desk-peer');
    const { fixture: second, page: reopened } = await restart.again(page, first, { desk: again });
    const back = reopened.getByRole('article', { name: 'Server desk asks to run a model' });
    const message = back.getByLabel('Message 1 (user)');
    assert.equal(await message.inputValue(), 'Say goodbye.');
    assert.equal(await back.getByLabel('System prompt').inputValue(), 'Be brief.');
    assert.equal(await back.getByLabel('Model').inputValue(), 'fake-large');
    assert.equal(await focused(back, 'System prompt'), false);
    assert.equal(await focused(back, 'Message 1 (user)'), false);

    llm.enqueue({ kind: 'text', tokens: ['Good', 'bye'] });
    const asked = llm.chatRequests.length;
    await back.getByRole('button', { name: 'Approve' }).click();
    await back.waitFor({ state: 'detached' });
    const result = await again.server.request(
      { method: 'tasks/result', params: { taskId } },
      CreateMessageResultSchema
    );
    assert.deepEqual(result.content, { type: 'text', text: 'Goodbye' });
    assert.equal(llm.chatRequests.length, asked + 1);
    const sent = llm.chatRequests.at(-1)!.body as { model: string; messages: unknown[] };
    assert.equal(sent.model, 'fake-large');
    const texts = JSON.stringify(sent.messages);
    assert.match(texts, /Say goodbye\./);
    assert.doesNotMatch(texts, /Say hello\./);
    assert.deepEqual(pageErrors, []);
    // Answered: no draft is left to come back. The drafts file is written off the event loop; a
    // host that stops waits for its writes, so it is looked at once this one has stopped.
    await second.stop();
    assert.equal(fs.existsSync(path.join(restart.dir, INBOX_DRAFTS_FILE)), false);
  });

  it('brings back an answer being edited in review, and sends it as edited', async () => {
    const peer = peerServer('desk-peer');
    const first = await restart.host({ desk: peer });
    await askFirst(first.host, true);
    const taskId = await askAsTask(peer, 'Say hi.');
    const page = await restart.open(first);
    llm.enqueue({ kind: 'text', tokens: ['Original', ' answer'] });
    await page
      .getByRole('article', { name: 'Server desk asks to run a model' })
      .getByRole('button', { name: 'Approve' })
      .click();
    const review = page.getByRole('article', { name: 'Review the answer for Server desk' });
    const answer = review.getByLabel('Answer from fake-small (you may edit it)');
    assert.equal(await answer.inputValue(), 'Original answer');
    const kept = draftKept(page, { answer: 'Edited answer.' });
    await answer.fill('Edited answer.');
    await kept;

    const again = peerServer('desk-peer');
    const { fixture: second, page: reopened } = await restart.again(page, first, { desk: again });
    const back = reopened.getByRole('article', { name: 'Review the answer for Server desk' });
    const restored = back.getByLabel('Answer from fake-small (you may edit it)');
    assert.equal(await restored.inputValue(), 'Edited answer.');
    assert.equal(await restored.evaluate((element) => element === document.activeElement), false);
    await back.getByRole('button', { name: 'Send answer' }).click();
    await back.waitFor({ state: 'detached' });
    const result = await again.server.request(
      { method: 'tasks/result', params: { taskId } },
      CreateMessageResultSchema
    );
    assert.deepEqual(result.content, { type: 'text', text: 'Edited answer.' });
    assert.deepEqual(pageErrors, []);
    await second.stop();
    assert.equal(fs.existsSync(path.join(restart.dir, INBOX_DRAFTS_FILE)), false);
  });
});
