import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { inboxHolds, peerServer } from '../support/host-fixture.js';
import { restartFixture } from './restart-fixture.js';

const Loose = z.looseObject({});

const question = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
    task: { ttl: 3_600_000 }
  }
});

/**
 * A task's question is answered by ending its task, which the server fetches. One asked over an
 * earlier connection (here, before Taskdesk restarted) is back in the Inbox, but the stdio server
 * running now is a new process, which has none of the old one's tasks: the card says it will not
 * fetch the answer, comes after the current questions, offers to dismiss it, and the answer is
 * said to be kept, not sent.
 */
describe('a task’s question from before a restart, in headless Chromium against the real core', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;

  before(() => restart.build());
  after(() => restart.close());

  it('says a stdio server started again will not fetch the answer, and sets its card apart', async () => {
    // The server asks before the restart.
    const peer = peerServer('desk-peer');
    const before = await restart.host({ desk: peer });
    const { task } = await peer.server.request(question('Your name for the booking?'), CreateTaskResultSchema);
    await peer.server.request(question('Your luggage?'), CreateTaskResultSchema);
    await inboxHolds(before.host, 2);
    await before.stop();

    // Taskdesk starts again; the server is started afresh too (a new process, for stdio).
    const again = peerServer('desk-peer');
    const fixture = await restart.host({ desk: again });
    const page = await restart.open(fixture);

    const old = page.getByRole('article', { name: 'Your name for the booking?' });
    const note = old.locator('.kept-note');
    await note.waitFor();
    assert.match(
      (await note.textContent()) ?? '',
      /^Server desk asked this before Taskdesk started it again: it runs now as a new process, and this task was the old one’s, so Server desk will not fetch your answer\.$/
    );
    await old.getByRole('button', { name: 'Dismiss this question' }).waitFor();

    // A question over the connection of now: nothing to warn about, and the answer is kept with
    // its task for the server to fetch (tasks/result), not sent: said so, as the Tasks row says.
    const { task: fresh } = await again.server.request(question('Your seat?'), CreateTaskResultSchema);
    const now = page.getByRole('article', { name: 'Your seat?' });
    await now.waitFor();
    assert.equal(await now.locator('.kept-note').count(), 0);
    // The question of now comes first; the one of the old process after it, under a line saying why.
    assert.deepEqual(await page.locator('article.inbox-item h3').allTextContents(), [
      'Your seat?',
      'Your name for the booking?',
      'Your luggage?'
    ]);
    await page.locator('.inbox-apart').waitFor();
    await now.getByLabel('Name').fill('12A');
    await now.getByRole('button', { name: 'Submit' }).click();
    await now.waitFor({ state: 'detached' });
    await page
      .locator('.inbox-answered')
      .filter({ hasText: /^Answer kept for Server desk to fetch: “Your seat\?”\. Go to its task\.$/ })
      .waitFor();
    const seat = await again.server.request({ method: 'tasks/result', params: { taskId: fresh.taskId } }, Loose);
    assert.deepEqual(seat.content, { name: '12A' });

    await old.getByLabel('Name').fill('Ada');
    await old.getByRole('button', { name: 'Submit' }).click();
    await old.waitFor({ state: 'detached' });
    const said = page.locator('.inbox-answered');
    await said
      .filter({
        hasText:
          /^Answer kept with the task until .+; Server desk was started again since it asked, and will not fetch it\. Go to its task\.$/
      })
      .waitFor();
    // Kept all the same: a server that did ask for it would get it.
    const result = await again.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    assert.deepEqual(result.content, { name: 'Ada' });

    // A question of the process running now goes with it: a Disconnect stops it, and nobody could
    // fetch the answer, so the question is withdrawn and its task ended, by the person.
    const { task: third } = await again.server.request(question('Your meal?'), CreateTaskResultSchema);
    const meal = page.getByRole('article', { name: 'Your meal?' });
    await meal.waitFor();
    await fixture.host.call('servers.disconnect', { serverId: 'desk' });
    await meal.waitFor({ state: 'detached' });
    const ended = await fixture.host.call('tasks.get', { taskId: third.taskId });
    assert.equal(ended.task.status, 'cancelled');
    assert.equal(ended.task.statusMessage, 'You disconnected Server desk before it was answered');
    // One the process before it asked stays (no Disconnect changes what becomes of it): its card
    // says its answer will not be fetched, the process that asked having stopped.
    await page
      .getByRole('article', { name: 'Your luggage?' })
      .locator('.kept-note')
      .filter({
        hasText:
          /^Server desk is not connected, and the process that asked this has stopped\. The one Taskdesk starts when it connects does not have this task, so Server desk will not fetch your answer\.$/
      })
      .waitFor();
    assert.ok(third.taskId);
    assert.deepEqual(pageErrors, []);
  });
});

/**
 * Tasks and History say of a task whose question its server will not fetch an answer to (a stdio
 * server started again since it asked) what its Inbox card says, in their own short words: its
 * row is still waiting for the person, as the Inbox still counts it, but nobody answers it
 * believing the answer goes anywhere.
 */
describe('a task’s question from before a restart, on Tasks and History', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;

  before(() => restart.build());
  after(() => restart.close());

  it('says on its row, in its detail and in History that its server will not fetch the answer', async () => {
    const peer = peerServer('desk-peer');
    const before = await restart.host({ desk: peer });
    const { task } = await peer.server.request(question('Your name for the booking?'), CreateTaskResultSchema);
    await inboxHolds(before.host, 1);
    await before.stop();

    const fixture = await restart.host({ desk: peerServer('desk-peer') });
    const page = await restart.open(fixture);
    // The Inbox's card says it first: its server is ready again, a new process.
    const card = page.getByRole('article', { name: 'Your name for the booking?' });
    await card.locator('.kept-note').waitFor();
    const inboxNote = ((await card.locator('.kept-note').textContent()) ?? '').trim();
    const itemId = await card.getAttribute('data-inbox-id');
    assert.ok(itemId);
    const line = 'Server desk will not fetch your answer: it was started again since it asked.';

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="received:${task.taskId}"]`);
    await row.locator('.status', { hasText: 'Waiting for you' }).waitFor();
    await row.getByText(line, { exact: true }).waitFor({ timeout: 10_000 });
    // The Inbox still counts it as waiting: so does the filter "Waiting for you", with the warning.
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Status').selectOption({ label: 'Waiting for you' });
    await tasks.getByText('1 of 1 tasks match').waitFor();
    await row.getByText(line, { exact: true }).waitFor();

    // Its detail says the Inbox's own sentence, and leads there, not to answering it.
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator('.task-detail');
    await detail.locator('.detail-status').getByText(inboxNote, { exact: true }).waitFor({ timeout: 10_000 });
    assert.equal(await detail.locator('.detail-status').getByText('Waiting for your answer in the Inbox').count(), 0);
    assert.equal(await detail.getByRole('link', { name: 'Answer it in the Inbox' }).count(), 0);
    assert.equal(
      await detail.getByRole('link', { name: 'See it in the Inbox' }).getAttribute('href'),
      `#inbox/${encodeURIComponent(itemId)}`
    );

    // History's entry says it too, under its "Waiting for you", and its detail the Inbox's sentence.
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const entry = history.locator(`li[data-history-id="received:${task.taskId}"]`);
    await entry.locator('.meta [data-status]', { hasText: 'Waiting for you' }).waitFor();
    await entry.getByText(line, { exact: true }).waitFor({ timeout: 10_000 });
    await entry.getByRole('button', { name: 'Your name for the booking?' }).click();
    const entryDetail = history.locator('.history-detail');
    await entryDetail.getByText(`${inboxNote} See it in the Inbox.`, { exact: true }).waitFor({ timeout: 10_000 });
    assert.equal(
      await entryDetail.getByRole('link', { name: 'See it in the Inbox' }).getAttribute('href'),
      `#inbox/${encodeURIComponent(itemId)}`
    );
    assert.equal(await entryDetail.locator('.meta').getByText('Waiting for your answer in the Inbox').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
