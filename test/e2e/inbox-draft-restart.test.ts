import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { INBOX_DRAFTS_FILE } from '../../app/inbox/inbox-drafts.js';
import { inboxHolds, peerServer } from '../support/host-fixture.js';
import { draftKept, restartFixture } from './restart-fixture.js';

const Loose = z.looseObject({});

const question = {
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message: 'Who should the booking be for?',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        room: { type: 'string', title: 'Room', enum: ['single', 'double'] }
      },
      required: ['name']
    },
    task: { ttl: 3_600_000 }
  }
};

/**
 * What a person typed into a task's question is kept by the host: when Taskdesk restarts and
 * the question is back in the Inbox, so is what they typed, and their answer goes as usual.
 */
describe('a task’s question typed into before a restart, in headless Chromium against the real core', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;

  before(() => restart.build());
  after(() => restart.close());

  it('is back in its card as it was typed, and answering it works', async () => {
    const peer = peerServer('desk-peer');
    const first = await restart.host({ desk: peer });
    const { task } = await peer.server.request(question, CreateTaskResultSchema);
    await inboxHolds(first.host, 1);
    const page = await restart.open(first);
    const card = page.getByRole('article', { name: 'Who should the booking be for?' });
    await card.waitFor();
    const kept = draftKept(page, { name: 'Ada Lovelace', room: 'double' });
    await card.getByLabel('Name').fill('Ada Lovelace');
    await card.getByLabel('Room').selectOption('double');
    await kept;

    // Taskdesk starts again; the server is started afresh too.
    const again = peerServer('desk-peer');
    const { fixture: second, page: reopened } = await restart.again(page, first, { desk: again });
    const back = reopened.getByRole('article', { name: 'Who should the booking be for?' });
    await back.waitFor();
    assert.equal(await back.getByLabel('Name').inputValue(), 'Ada Lovelace');
    assert.equal(await back.getByLabel('Room').inputValue(), 'double');

    await back.getByLabel('Name').fill('Ada King');
    await back.getByRole('button', { name: 'Submit' }).click();
    await back.waitFor({ state: 'detached' });
    const result = await again.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    assert.deepEqual(result.content, { name: 'Ada King', room: 'double' });
    assert.deepEqual(pageErrors, []);
    // Answered: no draft is left to come back. The drafts file is written off the event loop; a
    // host that stops waits for its writes, so it is looked at once this one has stopped.
    await second.stop();
    assert.equal(fs.existsSync(path.join(restart.dir, INBOX_DRAFTS_FILE)), false);
  });

  it('brings back a model reply a person was writing, too', async () => {
    const peer = peerServer('desk-peer');
    const first = await restart.host({ desk: peer });
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
          maxTokens: 20,
          task: { ttl: 3_600_000 }
        }
      },
      CreateTaskResultSchema
    );
    const page = await restart.open(first);
    const card = page.getByRole('article', { name: 'Server desk asks for a model reply' });
    await card.waitFor();
    const kept = draftKept(page, { reply: 'Hello from a person', model: 'human' });
    await card.getByLabel('Your reply').fill('Hello from a person');
    await kept;

    const again = peerServer('desk-peer');
    const { fixture: second, page: reopened } = await restart.again(page, first, { desk: again });
    const back = reopened.getByRole('article', { name: 'Server desk asks for a model reply' });
    await back.waitFor();
    assert.equal(await back.getByLabel('Your reply').inputValue(), 'Hello from a person');
    await back.getByRole('button', { name: 'Send reply' }).click();
    await back.waitFor({ state: 'detached' });
    const result = await again.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    assert.deepEqual(result.content, { type: 'text', text: 'Hello from a person' });
    assert.deepEqual(pageErrors, []);
    await second.stop();
  });

  it('opens a reply being written instead of a model run as it was, without taking the Inbox’s keys', async () => {
    const peer = peerServer('desk-peer');
    const first = await restart.host({ desk: peer });
    // A provider, and the policy that asks first (both kept across the restart): the request
    // waits for approval, not for a reply.
    await first.host.call('providers.save', {
      id: 'llm',
      name: 'Some LLM',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'some-model' }],
      defaultModel: 'some-model'
    });
    await first.host.call('sampling.setPolicy', { serverId: 'desk', policy: { mode: 'ask', reviewCompletion: true } });
    await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
          maxTokens: 20,
          task: { ttl: 3_600_000 }
        }
      },
      CreateTaskResultSchema
    );
    // A second card, for j to move to.
    await peer.server.request(question, CreateTaskResultSchema);
    await inboxHolds(first.host, 2);
    const page = await restart.open(first);
    const card = page.getByRole('article', { name: 'Server desk asks to run a model' });
    await card.getByRole('button', { name: 'Write the reply yourself…' }).click();
    const kept = draftKept(page, { reply: 'Hello', model: 'human' });
    await card.getByLabel('Your reply').fill('Hello');
    await kept;

    const again = peerServer('desk-peer');
    const { page: reopened } = await restart.again(page, first, { desk: again });
    const back = reopened.getByRole('article', { name: 'Server desk asks to run a model' });
    const reply = back.getByLabel('Your reply');
    assert.equal(await reply.inputValue(), 'Hello');
    await reopened.getByRole('article', { name: 'Who should the booking be for?' }).waitFor();
    assert.equal(await reply.evaluate((element) => element === document.activeElement), false);
    // j moves between the cards; nothing is typed into the reply.
    const focusedCard = () =>
      reopened.evaluate(
        () => document.activeElement?.closest('[data-inbox-id]')?.getAttribute('data-inbox-id') ?? null
      );
    await reopened.keyboard.press('j');
    const firstCard = await focusedCard();
    await reopened.keyboard.press('j');
    const secondCard = await focusedCard();
    assert.notEqual(firstCard, null);
    assert.notEqual(secondCard, firstCard);
    assert.equal(await reply.inputValue(), 'Hello');
    assert.equal(await reopened.evaluate(() => document.activeElement?.tagName), 'ARTICLE');
    assert.deepEqual(pageErrors, []);
  });
});
