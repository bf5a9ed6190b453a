import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, type InMemoryHostFixture } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { sampling, startReviewDesk } from './review-desk.js';

/** The person's own words for the model's answer, approved in review. */
const mine = (text: string) => ({
  role: 'assistant' as const,
  content: { type: 'text' as const, text },
  model: 'fake-small',
  stopReason: 'endTurn'
});

/**
 * A model's answer the person changed in review before it went back, as History says it. A
 * newcomer's row said only "Answered", and the detail showed their text without the model's.
 */
describe('History of a model answer the person changed in review, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];
  let taskId: string;

  before(async () => {
    built = await buildRenderer();
    const started = await startReviewDesk();
    ({ fixture, llm } = started);
    const { peer } = started;
    const { host } = fixture;

    // As a task: approved, the model answers, and the person changes the answer before approving it.
    llm.enqueue({ kind: 'text', tokens: ['Once upon a time ', 'a dragon sold tea.'] });
    let approval = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    let review = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-review');
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { ...sampling('Tell a story about a dragon.'), task: { ttl: 600_000 } }
      },
      CreateTaskResultSchema
    );
    taskId = task.taskId;
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'approve' } });
    let ended = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'completed');
    await host.call('inbox.answer', {
      id: (await review).item.id,
      answer: { action: 'approve', result: mine('A dragon sold green tea by the sea.') }
    });
    await ended;

    // As a plain request, the same.
    llm.enqueue({ kind: 'text', tokens: ['Roses are red.'] });
    approval = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    review = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-review');
    ended = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'completed' && !entry.taskId);
    const reply = peer.server.request(
      { method: 'sampling/createMessage', params: sampling('Write a limerick.') },
      CreateMessageResultSchema
    );
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'approve' } });
    await host.call('inbox.answer', {
      id: (await review).item.id,
      answer: { action: 'approve', result: mine('There once was a queue in the night.') }
    });
    await reply;
    await ended;
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

  for (const [how, title, model, sent] of [
    [
      'as a task',
      'Tell a story about a dragon.',
      'Once upon a time a dragon sold tea.',
      'A dragon sold green tea by the sea.'
    ],
    ['as a plain request', 'Write a limerick.', 'Roses are red.', 'There once was a queue in the night.']
  ] as const)
    it(`says the person changed the answer, ${how}, and shows what was sent and the model’s own`, async () => {
      const history = await openHistory();
      const row = history.locator('.history-list li', { hasText: title });
      const meta = row.locator('.meta');
      await meta.waitFor();
      assert.match((await meta.textContent()) ?? '', /Answered · changed by you · /);
      await row.getByRole('button', { name: title }).click();
      const detail = history.locator('.history-detail');
      await detail.getByRole('heading', { name: title }).waitFor();
      // What its server got, and the model's answer under a heading of its own.
      assert.match((await detail.textContent()) ?? '', new RegExp(sent));
      await detail.getByRole('heading', { name: 'The model’s answer before your changes', exact: true }).waitFor();
      assert.match((await detail.locator('.history-model-answer').textContent()) ?? '', new RegExp(model));
      assert.doesNotMatch((await detail.locator('.history-model-answer').textContent()) ?? '', new RegExp(sent));
      assert.deepEqual(pageErrors, []);
    });

  it('finds the changed answers by the row’s words, and leaves the model’s answer out of the list', async () => {
    const found = await fixture.host.call('history.list', { filter: { text: 'changed by you' } });
    assert.equal(found.total, 2);
    for (const entry of found.entries) assert.equal('modelAnswer' in entry, false);
    // Kept whole on the entry: the runner's review note held it.
    const whole = await fixture.host.call('history.get', { id: `received:${taskId}` });
    assert.match(JSON.stringify(whole.modelAnswer), /Once upon a time a dragon sold tea\./);
  });
});
