import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CancelTaskResultSchema,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { echoServer } from '../support/assistant-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] }
});

describe('History’s filters in the rows’ words, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture | undefined;
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
  });

  /** The Desk on History, closed after the tests. */
  async function openHistory(host: InMemoryHostFixture['host']) {
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors);
    closers.push(
      () => browser.close(),
      () => server.close()
    );
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    return { page, history: page.getByRole('region', { name: 'History' }) };
  }

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await fixture?.dispose();
    built?.remove();
  });

  it('filters by Answered, Declined and Dismissed, finds an answer, and closes a detail the filter leaves out', async () => {
    const clock = new ManualClock();
    const peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer, tools: echoServer() }, { clock });
    const { host } = fixture;
    for (const [message, answer] of [
      ['Who leads the team?', { action: 'accept', content: { name: 'Grace' } }],
      ['Share your phone number?', { action: 'decline' }],
      ['Your name for the raffle?', { action: 'cancel' }]
    ] as const) {
      const asked = nextEvent(host, 'inbox.added');
      const reply = peer.server.request({ method: 'elicitation/create', params: form(message) }, ElicitResultSchema);
      await host.call('inbox.answer', { id: (await asked).item.id, answer });
      await reply;
      await clock.advance(1);
    }
    await host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: 'hello' } });

    const { page, history } = await openHistory(host);
    const titles = history.locator('.history-list .history-title');
    await history.getByText('4 entries', { exact: true }).waitFor();
    assert.equal(await history.getByLabel('Search').getAttribute('placeholder'), 'Title, arguments, server or outcome');

    // The Status choices, grouped and worded as the Tasks screen's ("Where it stands" has only "Waiting for you").
    const status = history.getByLabel('Status');
    assert.deepEqual(
      await status
        .locator('optgroup')
        .evaluateAll((groups) =>
          groups.map((group) => [
            (group as HTMLOptGroupElement).label,
            Array.from(group.querySelectorAll('option'), (option) => option.textContent)
          ])
        ),
      [
        ['Where it stands', ['Waiting for you']],
        ['Status', ['Working', 'Input required', 'Completed', 'Failed', 'Cancelled', 'Expired', 'Lost']],
        ['How a question or model request ended', ['Answered', 'Declined', 'Dismissed', 'Rejected']]
      ]
    );
    for (const [choice, title, words] of [
      ['answered', 'Who leads the team?', 'Answered'],
      ['declined', 'Share your phone number?', 'Declined'],
      ['dismissed', 'Your name for the raffle?', 'Dismissed'],
      ['completed', 'Tool call: echo', 'Completed']
    ] as const) {
      await status.selectOption(choice);
      await history.getByText('1 of 4 entries match', { exact: true }).waitFor();
      assert.deepEqual(await titles.allTextContents(), [title], choice);
      assert.equal(await history.locator('.history-list .meta [data-status]').textContent(), words, choice);
      await status.selectOption('');
      await history.getByText('4 entries', { exact: true }).waitFor();
    }

    // Found by what the person answered, and by what the tool returned.
    const search = history.getByLabel('Search');
    await search.fill('Grace');
    await history.getByText('1 of 4 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Who leads the team?']);
    await search.fill('echo: hello');
    // The count said "1 of 4 entries match" for Grace already: the row tells this answer from that one.
    await history.locator('.history-list li', { hasText: 'Tool call: echo' }).waitFor();
    await history.getByText('1 of 4 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Tool call: echo']);
    await search.fill('');
    await history.getByText('4 entries', { exact: true }).waitFor();

    // A question's detail stays open while the list still holds it, and the focus stays on the filter.
    const kind = history.getByLabel('Kind');
    await history.getByRole('button', { name: 'Who leads the team?' }).click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('heading', { name: 'Who leads the team?' }).waitFor();
    // Opened, the address names it (a link to it), and the browser's Back closes it, the focus
    // back on its row; Forward opens it again.
    await page.waitForFunction(() => /^#history\/./.test(location.hash));
    await page.goBack();
    await detail.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Who leads the team?');
    await page.goForward();
    await detail.getByRole('heading', { name: 'Who leads the team?' }).waitFor();
    // As a person does: to the control, then a choice (`selectOption` alone does not move the focus).
    await kind.focus();
    await kind.selectOption('elicitation');
    await history.getByText('3 of 4 entries match', { exact: true }).waitFor();
    assert.equal(await detail.count(), 1, 'its entry is still listed');
    assert.equal(await kind.evaluate((element) => element === document.activeElement), true);
    await kind.selectOption('');
    await history.getByText('4 entries', { exact: true }).waitFor();

    // A tool call's detail closes when Kind "Question" leaves it out; the focus stays on Kind.
    await history.getByRole('button', { name: 'Tool call: echo' }).click();
    await detail.getByRole('heading', { name: 'Tool call: echo' }).waitFor();
    await kind.focus();
    await kind.selectOption('elicitation');
    await history.getByText('3 of 4 entries match', { exact: true }).waitFor();
    await detail.waitFor({ state: 'detached' });
    assert.equal(await kind.evaluate((element) => element === document.activeElement), true);

    // So does one the search leaves out, as the person types.
    await kind.selectOption('');
    await history.getByText('4 entries', { exact: true }).waitFor();
    await history.getByRole('button', { name: 'Tool call: echo' }).click();
    await detail.getByRole('heading', { name: 'Tool call: echo' }).waitFor();
    await search.click();
    await search.pressSequentially('raffle');
    await history.getByText('1 of 4 entries match', { exact: true }).waitFor();
    await detail.waitFor({ state: 'detached' });
    assert.equal(await search.evaluate((element) => element === document.activeElement), true);
    assert.equal(await search.inputValue(), 'raffle', 'no letter went elsewhere');
    assert.deepEqual(pageErrors, []);
  });

  it('keeps open a detail opened from a later page while the changed filter still holds it, and closes it when not', async () => {
    await fixture?.dispose();
    const clock = new ManualClock();
    const peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer, tools: echoServer() }, { clock });
    const { host } = fixture;
    await host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: 'first-call' } });
    await clock.advance(1);
    const asked = nextEvent(host, 'inbox.added');
    const reply = peer.server.request(
      { method: 'elicitation/create', params: form('Oldest question?') },
      ElicitResultSchema
    );
    await host.call('inbox.answer', {
      id: (await asked).item.id,
      answer: { action: 'accept', content: { name: 'Ada' } }
    });
    await reply;
    // More than a page (50) of newer calls: the two above are on the second page.
    for (let index = 0; index < 55; index++) {
      await clock.advance(1);
      await host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: `call-${index}` } });
    }

    const { page, history } = await openHistory(host);
    const detail = history.locator('.history-detail');
    const kind = history.getByLabel('Kind');
    await history.getByText('57 entries, showing 50', { exact: true }).waitFor();
    // The question whether the open entry still matches (the count of every entry asks with no filter, no id).
    const idCheck = () =>
      page.waitForResponse((response) => {
        const asked = response.request().postData() ?? '';
        return response.url().endsWith('/api/call') && asked.includes('"limit":1') && asked.includes('"id":');
      });

    // The oldest call, from the second page: Kind "Tool call" still holds it (on its second page).
    await history.getByRole('button', { name: 'Show more' }).click();
    await history.locator('li', { hasText: 'first-call' }).getByRole('button').first().click();
    await detail.getByText('first-call').first().waitFor();
    await kind.focus();
    let checked = idCheck();
    await kind.selectOption('tool-call');
    await history.getByText('56 of 57 entries match, showing 50', { exact: true }).waitFor();
    await checked;
    assert.equal(await detail.count(), 1, 'still held by the filter, on a page not loaded');

    // The question, from the second page: Kind "Tool call" leaves it out, and it closes.
    await kind.selectOption('');
    await history.getByText('57 entries, showing 50', { exact: true }).waitFor();
    await history.getByRole('button', { name: 'Show more' }).click();
    await history.getByRole('button', { name: 'Oldest question?' }).click();
    await detail.getByRole('heading', { name: 'Oldest question?' }).waitFor();
    await kind.focus();
    checked = idCheck();
    await kind.selectOption('tool-call');
    await checked;
    await detail.waitFor({ state: 'detached' });
    assert.equal(await kind.evaluate((element) => element === document.activeElement), true);
    assert.deepEqual(pageErrors, []);
  });
  it('says "Waiting for you" for a model request waiting in the Inbox, as Tasks does, and finds entries by the words their rows and details show', async () => {
    await fixture?.dispose();
    const clock = new ManualClock();
    const peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer }, { clock });
    const { host } = fixture;
    // A question answered with a choice its form titles ("Production" for `prod`) and a checkbox.
    const asked = nextEvent(host, 'inbox.added');
    const reply = peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Where should the release go?',
          requestedSchema: {
            type: 'object',
            properties: {
              env: {
                type: 'string',
                title: 'Environment',
                oneOf: [
                  { const: 'prod', title: 'Production' },
                  { const: 'stage', title: 'Staging' }
                ]
              },
              notify: { type: 'boolean', title: 'Tell the team' }
            },
            required: ['env']
          }
        }
      },
      ElicitResultSchema
    );
    await host.call('inbox.answer', {
      id: (await asked).item.id,
      answer: { action: 'accept', content: { env: 'prod', notify: true } }
    });
    await reply;
    await clock.advance(1);
    // A model request asked as a task: it waits in the Inbox for the person's reply, its status Working.
    const waiting = nextEvent(host, 'inbox.added');
    const task = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the release notes.' } }],
          maxTokens: 50,
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await waiting;

    const { history } = await openHistory(host);
    const titles = history.locator('.history-list .history-title');
    const search = history.getByLabel('Search');
    const status = history.getByLabel('Status');
    await history.getByText('2 entries', { exact: true }).waitFor();
    const model = history.locator(`li[data-history-id="received:${task.task.taskId}"]`);
    // Its badge says what the Tasks screen's says, not the protocol's "Working".
    await model.locator('.meta [data-status="working"]', { hasText: 'Waiting for you' }).waitFor();
    assert.match(
      (await model.locator('.meta').textContent()) ?? '',
      /^Model request · from Server desk · Waiting for you · /
    );
    await model.getByRole('button', { name: 'Summarise the release notes.' }).click();
    const detail = history.locator('.history-detail');
    await detail.locator('.meta [data-status]', { hasText: 'Waiting for you' }).waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });

    // The Status filter's "Waiting for you" finds it, and "Working" (its status) too, as on Tasks.
    for (const choice of ['waiting', 'working']) {
      await status.selectOption(choice);
      await history.getByText('1 of 2 entries match', { exact: true }).waitFor();
      assert.deepEqual(await titles.allTextContents(), ['Summarise the release notes.'], choice);
      await status.selectOption('');
      await history.getByText('2 entries', { exact: true }).waitFor();
    }

    // The search finds what the rows and the detail say: a badge's words, an option's title and
    // Yes for a checkbox (as the answer's detail shows them), and the values as they were sent.
    const finds = async (words: string, title: string) => {
      await search.fill(words);
      await history.getByText('1 of 2 entries match', { exact: true }).waitFor();
      assert.deepEqual(await titles.allTextContents(), [title], words);
      await search.fill('');
      await history.getByText('2 entries', { exact: true }).waitFor();
    };
    await finds('Waiting for you', 'Summarise the release notes.');
    await finds('Production', 'Where should the release go?');
    await finds('prod', 'Where should the release go?');
    await finds('Tell the team yes', 'Where should the release go?');

    // Its server cancels it: the row says who, and the search finds those words.
    await peer.server.request({ method: 'tasks/cancel', params: { taskId: task.task.taskId } }, CancelTaskResultSchema);
    await model.locator('.meta [data-status="cancelled"]', { hasText: 'Cancelled by the server' }).waitFor();
    await finds('by the server', 'Summarise the release notes.');
    assert.deepEqual(pageErrors, []);
  });

  it('says "Answered" for a model request the person answered, a reply they wrote or one they approved, as for a question, and "Completed" for one a model ran unasked', async () => {
    await fixture?.dispose();
    // A real OpenAI-compatible server on loopback: the network is faked, not the app.
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    closers.push(() => llm.close());
    const asker = peerServer('asker-peer');
    const unasked = peerServer('auto-peer');
    fixture = await startHostWith({ asker, auto: unasked }, { keyStore: new InMemoryKeyStore() });
    const { host } = fixture;
    await host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    await host.call('sampling.setPolicy', { serverId: 'asker', policy: { mode: 'ask', reviewCompletion: false } });
    await host.call('sampling.setPolicy', { serverId: 'auto', policy: { mode: 'auto', reviewCompletion: false } });
    const ask = (peer: typeof asker, text: string) =>
      peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 }
        },
        CreateMessageResultSchema
      );
    // Approved on its card: the model writes the answer.
    let asked = nextEvent(host, 'inbox.added');
    let reply = ask(asker, 'Approve me.');
    await host.call('inbox.answer', { id: (await asked).item.id, answer: { action: 'approve' } });
    await reply;
    // Its reply written by the person on the approval card: no model runs.
    asked = nextEvent(host, 'inbox.added');
    reply = ask(asker, 'Write me.');
    await host.call('inbox.answer', {
      id: (await asked).item.id,
      answer: { action: 'reply', text: 'Written by hand', model: 'human' }
    });
    await reply;
    // Approved, and the model's answer approved on review.
    await host.call('sampling.setPolicy', { serverId: 'asker', policy: { mode: 'ask', reviewCompletion: true } });
    asked = nextEvent(host, 'inbox.added');
    reply = ask(asker, 'Review me.');
    const approval = (await asked).item;
    const review = nextEvent(host, 'inbox.added');
    await host.call('inbox.answer', { id: approval.id, answer: { action: 'approve' } });
    await host.call('inbox.answer', { id: (await review).item.id, answer: { action: 'approve' } });
    await reply;
    // Run by the model with nobody asked.
    await ask(unasked, 'Run me.');

    const { history } = await openHistory(host);
    await history.getByText('4 entries', { exact: true }).waitFor();
    const badge = (title: string) =>
      history.locator('.history-list li').filter({ hasText: title }).locator('.meta [data-status]');
    assert.deepEqual(
      [
        await badge('Approve me.').textContent(),
        await badge('Write me.').textContent(),
        await badge('Review me.').textContent(),
        await badge('Run me.').textContent()
      ],
      ['Answered', 'Answered', 'Answered', 'Completed']
    );
    // Its protocol status is still Completed: the badge says how it ended, as a question's does.
    assert.equal(await badge('Write me.').getAttribute('data-status'), 'completed');

    // The Status filter finds them under the word their rows say, and the unasked one as Completed.
    const status = history.getByLabel('Status');
    const titles = history.locator('.history-list .history-title');
    await status.selectOption('answered');
    await history.getByText('3 of 4 entries match', { exact: true }).waitFor();
    assert.deepEqual((await titles.allTextContents()).sort(), ['Approve me.', 'Review me.', 'Write me.']);
    await status.selectOption('completed');
    await history.getByText('1 of 4 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Run me.']);
    await status.selectOption('');
    await history.getByText('4 entries', { exact: true }).waitFor();

    // Its detail says it too, and its timeline's last step.
    await history.getByRole('button', { name: 'Approve me.' }).click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('heading', { name: 'Approve me.' }).waitFor();
    assert.equal(await detail.locator('.meta [data-status]').textContent(), 'Answered');
    assert.equal(await detail.locator('.timeline li').last().locator('.timeline-label').textContent(), 'Answered');
    assert.deepEqual(pageErrors, []);
  });
});
