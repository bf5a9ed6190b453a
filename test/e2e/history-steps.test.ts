import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator } from 'playwright-core';
import { nextEvent, peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

const form = (message: string) => ({
  mode: 'form' as const,
  message,
  requestedSchema: { type: 'object' as const, properties: { shelf: { type: 'string' as const, title: 'Shelf' } } }
});

/** Each step of a timeline as it reads, without its time. */
function stepWords(timeline: Locator): Promise<string[]> {
  return timeline
    .locator('li')
    .evaluateAll((steps) =>
      steps.map((step) => (step.textContent ?? '').slice(step.querySelector('time')?.textContent?.length ?? 0).trim())
    );
}

/**
 * A newcomer read a received question's History as "Taskdesk is working on the request." (the
 * words Taskdesk gives every new task's server), its wait in the Inbox as "Waiting for Taskdesk",
 * and "Cancelled by you · Cancelled by the user in Taskdesk.": said as what happened, once.
 */
describe('History says a received question’s steps as what happened, in headless Chromium against the real core', () => {
  const peer: PeerServer = peerServer('steps-peer');
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ books: peer });
  });

  after(() => d?.close());

  it('asked, waiting for you, then cancelled by you, said once; a question without a task alike', async () => {
    const { host } = d.fixture;
    // A question asked as a task, which the person cancels (the Tasks screen's Cancel).
    const asked = nextEvent(host, 'inbox.added');
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Which shelf for Ivanhoe?'), task: { ttl: 600_000 } } },
      CreateTaskResultSchema
    );
    await asked;
    const cancelled = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'cancelled');
    await host.call('tasks.cancel', { taskId: task.taskId });
    await cancelled;
    // A question asked without a task, answered.
    const plain = nextEvent(host, 'inbox.added');
    const answer = peer.server.request(
      { method: 'elicitation/create', params: form('Which shelf for Emma?') },
      ElicitResultSchema
    );
    await host.call('inbox.answer', {
      id: (await plain).item.id,
      answer: { action: 'accept', content: { shelf: 'B' } }
    });
    await answer;

    const page = d.page;
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Which shelf for Ivanhoe?' }).click();
    const detail = history.locator(`.history-detail[data-history-id="received:${task.taskId}"]`);
    await detail.locator('.timeline li').nth(2).waitFor();
    assert.equal(
      ((await detail.locator('.meta').textContent()) ?? '').trim(),
      'Asked by Server books · Cancelled by you'
    );
    assert.deepEqual(await stepWords(detail.locator('.timeline')), [
      'Asked',
      'Waiting for you Waiting for your answer in the Inbox',
      'Cancelled'
    ]);
    await detail.getByRole('button', { name: 'Close' }).click();

    await history.getByRole('button', { name: 'Which shelf for Emma?' }).click();
    const answered = history.locator('.history-detail');
    await answered.getByRole('heading', { name: 'Which shelf for Emma?' }).waitFor();
    await answered.locator('.timeline li').nth(2).waitFor();
    assert.deepEqual(await stepWords(answered.locator('.timeline')), [
      'Asked',
      'Waiting for you Waiting for your answer in the Inbox',
      'Answered'
    ]);
    assert.deepEqual(d.pageErrors, []);
  });
});
