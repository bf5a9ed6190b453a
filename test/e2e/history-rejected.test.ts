import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, type InMemoryHostFixture } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { sampling, startReviewDesk } from './review-desk.js';

/**
 * A model's answer the person rejected in review, and a model request they rejected before it
 * ran, as History says them. A newcomer read "User rejected sampling request" for an answer they
 * rejected (the protocol's words to the server), and the answer they rejected was nowhere.
 */
describe('History of a rejected model answer and a rejected model request, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];
  let answerTaskId: string;

  before(async () => {
    built = await buildRenderer();
    const started = await startReviewDesk();
    ({ fixture, llm } = started);
    const { peer } = started;
    const { host } = fixture;

    // Asked as a task: approved, the model answers, and the person rejects that answer in review.
    llm.enqueue({ kind: 'text', tokens: ['Once upon a time ', 'a dragon sold tea.'] });
    const approval = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const review = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-review');
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { ...sampling('Tell a story about a dragon.'), task: { ttl: 600_000 } }
      },
      CreateTaskResultSchema
    );
    answerTaskId = task.taskId;
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'approve' } });
    const ended = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'failed');
    await host.call('inbox.answer', { id: (await review).item.id, answer: { action: 'reject' } });
    await ended;

    // Asked as a plain request: rejected on its approval card, before any model ran.
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const reply = peer.server
      .request({ method: 'sampling/createMessage', params: sampling('Write a limerick.') }, CreateMessageResultSchema)
      .catch((error: unknown) => error);
    await host.call('inbox.answer', { id: (await asked).item.id, answer: { action: 'reject' } });
    await reply;
  });

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await fixture?.dispose();
    await llm?.close();
    built?.remove();
  });

  async function openHistory() {
    const { server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors);
    closers.push(
      () => browser.close(),
      () => server.close()
    );
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('2 entries', { exact: true }).waitFor();
    return history;
  }

  it('says the person rejected the model’s answer, keeps that answer in sight, and says what its server was told', async () => {
    const history = await openHistory();
    await history
      .locator(`li[data-history-id="received:${answerTaskId}"]`)
      .getByRole('button', { name: 'Tell a story about a dragon.' })
      .click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('heading', { name: 'Tell a story about a dragon.' }).waitFor();
    const meta = (await detail.locator('.meta').first().textContent()) ?? '';
    assert.match(meta, /Rejected · You rejected the model’s answer; its server did not get it\.$/);
    assert.doesNotMatch(meta, /User rejected sampling request/, 'the protocol’s words are not the person’s');
    // Its end in a badge, as the steps before it show theirs (its arrival and its waits on the
    // person in words), and the entry's own badge says it.
    const steps = detail.locator('.timeline li');
    assert.deepEqual(
      await steps.evaluateAll((items) =>
        items.map(
          (item) =>
            item.querySelector('[data-status]')?.textContent ?? item.querySelector('.timeline-label')?.textContent
        )
      ),
      ['Asked', 'Waiting for you', 'Working', 'Waiting for you', 'Rejected']
    );
    const last = steps.last();
    const badge = last.locator('[data-status]');
    assert.equal(await badge.textContent(), 'Rejected', 'not “Failed”');
    assert.equal(await badge.getAttribute('class'), await detail.locator('.meta [data-status]').getAttribute('class'));
    assert.equal(await last.locator('.timeline-label').count(), 0, 'not words beside the badges');
    assert.match((await last.textContent()) ?? '', /You rejected the model’s answer; its server did not get it\.$/);
    // What was rejected, in sight, under its own heading.
    await detail.getByRole('heading', { name: 'Rejected answer', exact: true }).waitFor();
    assert.match(
      (await detail.locator('.history-rejected-answer').textContent()) ?? '',
      /Once upon a time a dragon sold tea\./
    );
    // What its server was told, said as such.
    assert.equal(
      await detail.locator('.history-told').textContent(),
      'Its server was told: “User rejected sampling request”.'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('says a request rejected before it ran apart from it, with no answer to show', async () => {
    const history = await openHistory();
    await history.getByRole('button', { name: 'Write a limerick.' }).click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('heading', { name: 'Write a limerick.' }).waitFor();
    assert.match(
      (await detail.locator('.meta').first().textContent()) ?? '',
      /Rejected · You rejected the model request; no model ran\.$/
    );
    assert.equal(await detail.getByRole('heading', { name: 'Rejected answer' }).count(), 0);
    assert.equal(
      await detail.locator('.history-told').textContent(),
      'Its server was told: “User rejected sampling request”.'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('says on Tasks what History says: the answer was rejected, what it was, and what its server was told', async () => {
    // Tasks said only "Rejected: User rejected sampling request", and not which was rejected nor what.
    const { server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors);
    closers.push(
      () => browser.close(),
      () => server.close()
    );
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const key = `received:${answerTaskId}`;
    const row = tasks.locator(`tr[data-task-key="${key}"]`);
    await row.waitFor();
    const said = 'You rejected the model’s answer; its server did not get it.';
    assert.equal(((await row.locator('td.outcome').textContent()) ?? '').trim(), said);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="${key}"]`);
    await detail.getByRole('heading', { name: 'Rejected answer', exact: true }).waitFor();
    assert.equal(await detail.locator('.detail-status .status-message').textContent(), said);
    assert.match(
      (await detail.locator('.task-rejected-answer').textContent()) ?? '',
      /Once upon a time a dragon sold tea\./
    );
    assert.equal(
      await detail.locator('.task-told').textContent(),
      'Its server was told: “User rejected sampling request”.'
    );
    assert.doesNotMatch((await detail.textContent()) ?? '', /Rejected: /, 'not the protocol’s words as the person’s');
    assert.deepEqual(pageErrors, []);
  });

  it('names in the audit log the request whose answer was rejected, and the request rejected', () => {
    fixture.host.audit.flush();
    const said = fixture.host.audit
      .read({ limit: 100 })
      .filter((entry) => entry.type === 'sampling.completion' || entry.type === 'sampling.request')
      .reverse()
      .map(auditSentence);
    assert.deepEqual(said, [
      'You approved a model request: “Tell a story about a dragon.”',
      'You rejected the model’s answer to a model request: “Tell a story about a dragon.”',
      'You rejected a model request: “Write a limerick.”'
    ]);
  });
});
