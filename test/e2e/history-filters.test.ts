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
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture, tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { recordHeard } from './live-region.js';
import { passUndoWindow } from './undo-window.js';

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
        ['Status', ['Working', 'Waiting for Taskdesk', 'Completed', 'Failed', 'Cancelled', 'Expired', 'Lost']],
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
    assert.equal(await detail.locator('.timeline li').last().locator('[data-status]').textContent(), 'Answered');
    assert.deepEqual(pageErrors, []);
  });
});

const question = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { region: { type: 'string', title: 'Region' } } },
    task: { ttl: 600_000 }
  }
});

describe('the counts and Clear filters of Tasks and History, in headless Chromium against the real core', () => {
  const desk = peerServer('desk-peer');
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ desk });
    const { host } = d.fixture;
    // Three tasks, all ended: a question answered, one declined, one its server took back.
    for (const [message, answer] of [
      ['Which region is the report for?', { action: 'accept', content: { region: 'North' } }],
      ['Share your phone number?', { action: 'decline' }]
    ] as const) {
      const asked = nextEvent(host, 'inbox.added');
      await desk.server.request(question(message), CreateTaskResultSchema);
      await host.call('inbox.answer', { id: (await asked).item.id, answer });
    }
    const { task } = await desk.server.request(question('Which colour for the cover?'), CreateTaskResultSchema);
    await desk.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, CancelTaskResultSchema);
  });

  after(async () => {
    await d?.close();
  });

  it('Tasks says "N of M tasks match" for every Status choice, "3 of 3" too when every task matches', async () => {
    const { page } = d;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const count = tasks.locator('.tasks-count');
    await count.getByText('3 tasks', { exact: true }).waitFor();
    await tasks.locator('tbody [data-status="working"]').waitFor({ state: 'detached' });
    const status = tasks.getByRole('search', { name: 'Tasks' }).getByRole('combobox', { name: 'Status', exact: true });
    const expected: Record<string, number> = {
      'Waiting for you': 0,
      'Not ended': 0,
      Ended: 3,
      Working: 0,
      'Waiting for Taskdesk': 0,
      Completed: 0,
      Failed: 0,
      Cancelled: 1,
      Expired: 0,
      Lost: 0,
      Answered: 1,
      Declined: 1,
      Dismissed: 0,
      Rejected: 0
    };
    const choices = await status
      .locator('option')
      .evaluateAll((options) => (options as HTMLOptionElement[]).map((option) => [option.value, option.label]));
    assert.deepEqual(
      choices.filter(([value]) => value !== '').map(([, label]) => label),
      Object.keys(expected),
      'every choice is checked'
    );
    for (const [value, label] of choices) {
      if (value === '') continue;
      await status.selectOption(value!);
      await count.getByText(`${expected[label!]} of 3 tasks match`, { exact: true }).waitFor();
      assert.equal(await tasks.locator('tbody tr[data-task-key]').count(), expected[label!], label);
      await tasks.getByRole('button', { name: 'Clear filters' }).waitFor();
    }
    await status.selectOption('');
    await count.getByText('3 tasks', { exact: true }).waitFor();
    assert.equal(await tasks.getByRole('button', { name: 'Clear filters' }).count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('History says "N of M entries match" while a filter is set, and Clear filters sets every filter back, says so and puts the focus on the count', async () => {
    const { page } = d;
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const filters = history.getByRole('search', { name: 'History' });
    const count = history.locator('.history-count');
    const clear = history.getByRole('button', { name: 'Clear filters' });
    const titles = history.locator('.history-list .history-title');
    await count.getByText('3 entries', { exact: true }).waitFor();
    assert.equal(await clear.count(), 0, 'no filter set: nothing to clear');

    const search = filters.getByRole('searchbox', { name: 'Search', exact: true });
    const direction = filters.getByRole('combobox', { name: 'Direction', exact: true });
    const status = filters.getByRole('combobox', { name: 'Status', exact: true });
    const server = filters.getByRole('combobox', { name: 'Server', exact: true });
    const kind = filters.getByRole('combobox', { name: 'Kind', exact: true });
    await status.selectOption('declined');
    await count.getByText('1 of 3 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Share your phone number?']);
    await clear.waitFor();
    // Every entry matches, and the count still says a filter is set.
    await status.selectOption('');
    await kind.selectOption('elicitation');
    await count.getByText('3 of 3 entries match', { exact: true }).waitFor();
    await direction.selectOption('received');
    await server.selectOption('desk');
    await search.fill('no-such-entry-anywhere');
    await count.getByText('0 of 3 entries match', { exact: true }).waitFor();
    assert.equal(await titles.count(), 0);

    // Pressed from the keyboard, the button focused already.
    await clear.focus();
    await recordHeard(page);
    await clear.press('Enter');
    await count.getByText('3 entries', { exact: true }).waitFor();
    await titles.nth(2).waitFor();
    for (const field of [search, direction, status, server, kind]) assert.equal(await field.inputValue(), '');
    await clear.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.classList.contains('history-count'));
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.startsWith('Filters cleared'))
    );
    // Said once each: that the filters are cleared (announced), and the count (read as the focus lands on it).
    const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard);
    assert.deepEqual(heard.toSorted(), ['3 entries', 'Filters cleared: every entry is shown.'], JSON.stringify(heard));
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * Two servers saved from the Desk, both server-everything over stdio; the second, whose tool tasks
 * were waiting on a question, removed. Its tasks stay listed on Tasks and History, and its name in
 * their Server filters.
 */
describe('a removed server’s entries in the Server filter, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let host: Host;
  const data = tempDir();
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      transportFactory: () =>
        new StdioClientTransport({ command: everythingServer.transport.command, args: everythingServer.transport.args })
    });
    for (const [id, name] of [
      ['one', 'Everything one'],
      ['two', 'Everything two']
    ]) {
      await host.call('servers.add', {
        id: id!,
        name: name!,
        autoConnect: false,
        transport: { type: 'stdio', command: 'everything-server', args: [] }
      });
      assert.equal((await host.call('servers.connect', { serverId: id! })).state.status, 'ready');
    }
    for (const [serverId, topic] of [
      ['one', 'rust'],
      ['two', 'python'],
      ['two', 'go']
    ]) {
      const asked = nextEvent(host, 'inbox.added');
      const outcome = await host.call('tools.call', {
        serverId: serverId!,
        name: 'simulate-research-query',
        arguments: { topic: topic!, ambiguous: true }
      });
      assert.equal(outcome.type, 'task');
      await asked;
    }
    await host.call('servers.remove', { serverId: 'two' });
  });

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await host?.close();
    data.remove();
    built?.remove();
  });

  /** The Server filter's choices, as the person reads them. */
  async function serverChoices(region: ReturnType<Awaited<ReturnType<typeof openDesk>>['page']['getByRole']>) {
    return region
      .getByRole('combobox', { name: 'Server', exact: true })
      .locator('option')
      .evaluateAll((options) => options.map((option) => option.textContent));
  }

  it('offers the removed server once, said as removed, on Tasks and on History, and filters by it', async () => {
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors);
    closers.push(
      () => browser.close(),
      () => server.close()
    );

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByText('3 tasks', { exact: true }).waitFor();
    assert.deepEqual(await serverChoices(tasks), ['Any', 'Everything one', 'Everything two (removed)']);
    await tasks
      .getByRole('combobox', { name: 'Server', exact: true })
      .selectOption({ label: 'Everything two (removed)' });
    await tasks.getByText('2 of 3 tasks match', { exact: true }).waitFor();

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    // Its tool tasks, and the questions they asked that ended (the removed server's, withdrawn).
    await history.locator('.history-count', { hasText: /^\d+ entries$/ }).waitFor();
    assert.deepEqual(await serverChoices(history), ['Any', 'Everything one', 'Everything two (removed)']);
    await history
      .getByRole('combobox', { name: 'Server', exact: true })
      .selectOption({ label: 'Everything two (removed)' });
    await history.locator('.history-count', { hasText: /^\d+ of \d+ entries match$/ }).waitFor();
    const metas = await history.locator('.history-list .meta').allTextContents();
    assert.ok(metas.length >= 2, metas.join('\n'));
    assert.ok(
      metas.every((meta) => meta.includes('Everything two')),
      metas.join('\n')
    );
    // Still offered, as chosen, though the list now holds none of the others.
    assert.deepEqual(await serverChoices(history), ['Any', 'Everything one', 'Everything two (removed)']);
    assert.deepEqual(pageErrors, []);
  });
});

/**
 * A Decline given in the Inbox waits out its undo window before it is sent: meanwhile its task's
 * entry says "Declining", as its Tasks row does, and the Status filter's "Waiting for you" (run
 * on the host) leaves it out, as the Tasks screen's does; Undo brings it back.
 */
describe('History’s “Waiting for you” while a question’s Decline waits out its undo window, in headless Chromium against the real core', () => {
  const asker = peerServer('asker');
  let d: DeskFixture;

  before(async () => {
    // The page's clock is driven here: the undo window passes only when the test says.
    d = await startDesk({ asker }, { beforeLoad: (page) => page.clock.install() });
  });

  after(async () => {
    await d?.close();
  });

  it('leaves the entry out while its Decline is held, and lists it again after Undo', async () => {
    const { page } = d;
    const shelf = await asker.server.request(question('Which shelf is it on?'), CreateTaskResultSchema);
    await asker.server.request(question('Which floor is it on?'), CreateTaskResultSchema);
    // A section's link, named with its count ("Inbox 1").
    const nav = (name: string) =>
      page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: new RegExp(`^${name}\\b`) });
    const history = page.getByRole('region', { name: 'History' });
    const titles = history.locator('.history-list .history-title');
    const count = history.locator('.history-count');
    await nav('History').click();
    await history.getByLabel('Status').selectOption({ label: 'Waiting for you' });
    await count.getByText('2 of 2 entries match', { exact: true }).waitFor();

    await nav('Inbox').click();
    const card = page.getByRole('article', { name: 'Which shelf is it on?' });
    // The page's time stands still from here: the undo window lasts until the test passes it.
    await page.clock.pauseAt(Date.now() + 100);
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.inbox-held').waitFor();
    await nav('History').click();
    // It waits on the person no more: the filter leaves it out, and counts it out.
    await count.getByText('1 of 2 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Which floor is it on?']);
    assert.equal(await history.locator(`li[data-history-id="received:${shelf.task.taskId}"]`).count(), 0);
    // Without the filter, it is listed, said as Declining.
    await history.getByLabel('Status').selectOption('');
    await history
      .locator(`li[data-history-id="received:${shelf.task.taskId}"] .status`)
      .getByText('Declining', { exact: true })
      .waitFor();
    await history.getByLabel('Status').selectOption({ label: 'Waiting for you' });
    await count.getByText('1 of 2 entries match', { exact: true }).waitFor();

    // Undone, it waits for the person again, and the filter lists it again.
    await nav('Inbox').click();
    await page.locator('.inbox-held').getByRole('button', { name: 'Undo' }).click();
    await card.waitFor();
    await nav('History').click();
    await count.getByText('2 of 2 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Which floor is it on?', 'Which shelf is it on?']);

    // Declined again, and its window over: it went, and it is Declined, no longer waiting.
    await nav('Inbox').click();
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.inbox-held').waitFor();
    await passUndoWindow(page);
    await card.waitFor({ state: 'detached' });
    await nav('History').click();
    await count.getByText('1 of 2 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Which floor is it on?']);
    assert.deepEqual(d.pageErrors, []);
  });
});
