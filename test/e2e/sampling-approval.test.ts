import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Page, type Request, type Route } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk, root } from './renderer-build.js';
import { passUndoWindow } from './undo-window.js';
import { recordSaid, said } from './live-region.js';

function methodOf(request: Request): string | undefined {
  try {
    return (request.postDataJSON() as { method?: string } | null)?.method;
  } catch {
    return undefined;
  }
}

/**
 * Lets the page's next `method` call reach the host, and holds the host's reply back from the
 * page until released: `taken` once the host answered, `release` resolves once the page has it.
 */
async function holdReply(page: Page, method: string): Promise<{ taken: Promise<void>; release: () => Promise<void> }> {
  let taken!: () => void;
  let open!: () => void;
  let delivered!: () => void;
  const answered = new Promise<void>((resolve) => (taken = resolve));
  const gate = new Promise<void>((resolve) => (open = resolve));
  const fulfilled = new Promise<void>((resolve) => (delivered = resolve));
  let caught = false;
  const handler = async (route: Route) => {
    if (caught || methodOf(route.request()) !== method) return route.fallback();
    caught = true;
    const response = await route.fetch();
    taken();
    await gate;
    await route.fulfill({ response });
    delivered();
  };
  await page.route('**/api/call', handler);
  return {
    taken: answered,
    release: async () => {
      open();
      await fulfilled;
      await page.unroute('**/api/call', handler);
    }
  };
}

/**
 * What the live region said of an approval whose answer to review came before its reply: the
 * approval, as its run ended, then the answer's arrival; never that the model is running.
 */
function assertSaidInOrder(heard: string[]): void {
  const text = heard.join(' ');
  const approved = text.indexOf('Approved; fake-small answered: review its answer.');
  assert.ok(approved !== -1, `the approval is said: ${text}`);
  assert.ok(
    approved < text.indexOf('New in the inbox: a model answer to review from Server p.'),
    `then the arrival: ${text}`
  );
  assert.doesNotMatch(text, /is running/);
}

/**
 * Records every text the line above the Inbox's cards shows from now on (as `window.lines`): a
 * line shown for a moment, between the reply to an answer and what follows, is kept.
 */
const recordLines = (page: Page) =>
  page.evaluate(() => {
    const lines: string[] = [];
    (window as unknown as { lines: string[] }).lines = lines;
    // No named function in here: the test's build would name it with a helper the page has not.
    new MutationObserver(() => {
      for (const line of Array.from(document.querySelectorAll('.inbox-answered')))
        if (line.textContent && lines.at(-1) !== line.textContent) lines.push(line.textContent);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });

/** Every text the line above the cards showed since {@link recordLines}. */
const lines = (page: Page) => page.evaluate(() => (window as unknown as { lines: string[] }).lines);

describe('sampling with a model behind approval and review, in the UI', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let llm: FakeOpenAIServer;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    built = await buildRenderer();
    // A real OpenAI-compatible server on loopback: the network is faked, not the app.
    llm = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'] });
    peer = peerServer('approval-peer');
    fixture = await startHostWith({ p: peer }, { keyStore: new InMemoryKeyStore() });
    await fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-small'
    });
    await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, [], {
      beforeLoad: (opened) => opened.clock.install()
    }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    await llm?.close();
    built?.remove();
  });

  /**
   * Server p asks for a model reply as a task; `result` is its `tasks/result`, which waits for the
   * person (a wrapper: awaiting the promise itself would wait for the answer).
   */
  const askAsTask = async (text: string) => {
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text } }],
          maxTokens: 10,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    return {
      result: peer.server.request(
        { method: 'tasks/result', params: { taskId: task.taskId } },
        CreateMessageResultSchema
      )
    };
  };

  it('approves the request on another model, then edits the answer before it goes back', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Original', ' answer'] });
    const { result } = await askAsTask('Say hi');

    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.waitFor();
    await approval.getByText('Say hi').waitFor();
    await approval.getByText(/^Fake LLM · fake-small — /).waitFor();
    assert.equal(await approval.locator('.kind-tag').textContent(), 'Model request · approve');
    await approval.getByLabel('Model').fill('fake-large');
    await approval.getByRole('button', { name: 'Approve' }).click();
    await approval.waitFor({ state: 'detached' });

    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.waitFor();
    assert.equal(await review.locator('.kind-tag').textContent(), 'Model answer · review');
    // The focus waited on the Inbox heading for the next card, and the Review (the card itself,
    // so that a key is not typed into its answer) took it.
    await page.waitForFunction(() => document.activeElement?.matches('article.kind-sampling-review') === true);
    const answer = review.getByLabel('Answer from fake-large (you may edit it)');
    assert.equal(await answer.inputValue(), 'Original answer');
    // The model has answered: the line above the cards no longer says it is running.
    assert.equal(await page.locator('.inbox-answered').filter({ hasText: 'is running' }).count(), 0);
    assert.equal(llm.chatRequests.at(-1)!.body.model, 'fake-large');
    await answer.fill('Hello, edited.');
    await review.getByRole('button', { name: 'Send answer' }).click();
    await review.waitFor({ state: 'detached' });
    // A task's answer ends the task and is kept for the server to fetch (tasks/result), as the
    // Tasks row says ("Not fetched by Server p yet"): not said to be sent.
    await page.locator('.inbox-answered').filter({ hasText: 'Answer kept for Server p to fetch: “Say hi”.' }).waitFor();
    assert.equal(await page.locator('.inbox-answered').filter({ hasText: 'Answer sent' }).count(), 0);

    const message = await result;
    assert.deepEqual(message.content, { type: 'text', text: 'Hello, edited.' });
    assert.equal(message.model, 'fake-large');
  });

  it('says on the review card when the answer was cut off at the server’s token limit, and sends it as it is', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Once upon', ' a time'], finishReason: 'length' });
    const { result } = await askAsTask('Tell a story');
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Tell a story').waitFor();
    await approval.getByRole('button', { name: 'Approve' }).click();
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    const warning = review.locator('.review-cut-off');
    await warning.waitFor();
    await review.screenshot({ path: path.join(root, '.tmp/sampling-review-cut-off.png') });
    assert.equal(
      await warning.textContent(),
      'Cut off: the model reached the limit of 10 tokens before it finished. Send it as it is, edit it, or reject it.'
    );
    await review.getByRole('button', { name: 'Send answer' }).click();
    const message = await result;
    assert.equal(message.stopReason, 'maxTokens');
    assert.deepEqual(message.content, { type: 'text', text: 'Once upon a time' });
  });

  it('keeps the review card when it arrives before the reply to the approval (same id)', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Crossed', ' answer'] });
    const { result } = await askAsTask('Cross the reply');
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Cross the reply').waitFor();
    const reply = await holdReply(page, 'inbox.answer');
    await recordSaid(page);
    await recordLines(page);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await reply.taken;
    // The host took the answer: its events replace the approval by the review, under the task's id,
    // before the page has the reply.
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.getByLabel('Answer from fake-small (you may edit it)').waitFor();
    assert.equal(await approval.count(), 0);
    await reply.release();
    // The review's own answer goes after the reply to the approval: once its line shows, the page
    // has long handled that reply (the review stayed for it, to be answered).
    await review.getByRole('button', { name: 'Send answer' }).click();
    await review.waitFor({ state: 'detached' });
    await page.locator('.inbox-answered').filter({ hasText: 'Answer kept for Server p to fetch' }).waitFor();
    assert.deepEqual((await result).content, { type: 'text', text: 'Crossed answer' });
    // Nothing said the model was running, on the line or aloud; the approval was said all the same,
    // before the review's arrival, as the run ended.
    assert.deepEqual(
      (await lines(page)).filter((line) => /is running/.test(line)),
      [],
      'no "… is running" line'
    );
    assertSaidInOrder(await said(page));
  });

  it('a request that is no task, its answer to review come before the reply to the approval: said in order, and no "… is running" line', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Plain', ' crossed'] });
    const asked = peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Cross plainly' } }], maxTokens: 10 }
      },
      CreateMessageResultSchema
    );
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Cross plainly').waitFor();
    const reply = await holdReply(page, 'inbox.answer');
    await recordSaid(page);
    await recordLines(page);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await reply.taken;
    // Its answer to review comes under an id of its own, before the page has the reply.
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.getByLabel('Answer from fake-small (you may edit it)').waitFor();
    await reply.release();
    // A step after the reply: the review answered, its line shown.
    await review.getByRole('button', { name: 'Send answer' }).click();
    assert.deepEqual((await asked).content, { type: 'text', text: 'Plain crossed' });
    await review.waitFor({ state: 'detached' });
    await page.locator('.inbox-answered').filter({ hasText: 'Answer sent to Server p' }).waitFor();
    // The model was done: nothing said it ran, above the answer to review or aloud.
    assert.deepEqual(
      (await lines(page)).filter((line) => /is running/.test(line)),
      [],
      'no "… is running" line'
    );
    assertSaidInOrder(await said(page));
  });

  it('without review, says the approved model answered once its run ended (a task, and a request that is none)', async () => {
    await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: false } });
    try {
      const said = page.locator('.inbox-answered');
      llm.enqueue({ kind: 'hold' });
      const { task } = await peer.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Run unreviewed' } }],
            maxTokens: 10,
            task: { ttl: 60_000 }
          }
        },
        CreateTaskResultSchema
      );
      const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
      await approval.getByText('Run unreviewed').waitFor();
      // The model answers only when let: the line says it runs until then.
      await approval.getByRole('button', { name: 'Approve' }).click();
      await said.filter({ hasText: 'Approved; fake-small is running.' }).waitFor();
      const stream = await llm.nextHeld();
      stream.push('Task', ' answer');
      stream.finish();
      const result = await peer.server.request(
        { method: 'tasks/result', params: { taskId: task.taskId } },
        CreateMessageResultSchema
      );
      assert.deepEqual(result.content, { type: 'text', text: 'Task answer' });
      await said.filter({ hasText: 'Approved; fake-small answered Server p.' }).waitFor();

      llm.enqueue({ kind: 'text', tokens: ['Plain', ' answer'] });
      const asked = peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Run plainly' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      );
      await approval.getByText('Run plainly').waitFor();
      await approval.getByLabel('Model').fill('fake-large');
      await approval.getByRole('button', { name: 'Approve' }).click();
      assert.deepEqual((await asked).content, { type: 'text', text: 'Plain answer' });
      await said.filter({ hasText: 'Approved; fake-large answered Server p.' }).waitFor();
    } finally {
      await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    }
  });

  it('puts a request whose approved run failed back in the Inbox, with why, to try again', async () => {
    await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: false } });
    try {
      llm.enqueue({ kind: 'error', status: 400, message: 'The model is overloaded' });
      const { task } = await peer.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Fail for me' } }],
            maxTokens: 10,
            task: { ttl: 60_000 }
          }
        },
        CreateTaskResultSchema
      );
      const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
      await approval.getByText('Fail for me').waitFor();
      await approval.getByLabel('Model').fill('fake-large');
      await approval.getByRole('button', { name: 'Approve' }).click();
      // Back, saying what failed, on the model the person chose, and what they can do.
      const failed = approval.locator('.run-failed');
      // Fake LLM fails since, with the run's words: said once, in this box, with the way to its card.
      await failed.getByRole('link', { name: 'Open Fake LLM in LLM providers' }).waitFor();
      assert.match(
        (await failed.textContent()) ?? '',
        /^The run you approved on fake-large \(Fake LLM\) failed at .+: .*overloaded.*[.?!)] Try it again, on another model or with the request changed, write the reply yourself, or reject it; Server p waits meanwhile\. Open Fake LLM in LLM providers\.$/
      );
      assert.equal(await approval.locator('.provider-failing').count(), 0);
      assert.equal(await approval.getByLabel('Model').inputValue(), 'fake-large');
      // The focus waited on the Inbox heading, and the request back (the card) took it.
      await page.waitForFunction(
        (id) => document.activeElement?.matches(`article[data-inbox-id="${id}"]`) === true,
        task.taskId
      );
      // The server's task is still at work, waiting for the person, not failed (Taskdesk's own
      // waits say so in the status message: input_required would ask the server for input).
      const waiting = await fixture.host.call('tasks.get', { taskId: task.taskId });
      assert.equal(waiting.task.status, 'working');
      assert.match(waiting.task.statusMessage ?? '', /the approved model run failed; try it again or reject/);
      assert.equal(await page.locator('.notice-failed-run').count(), 0, 'the card says it: no notice besides');

      llm.enqueue({ kind: 'hold' });
      await approval.getByRole('button', { name: 'Try again' }).click();
      const said = page.locator('.inbox-answered');
      await said.filter({ hasText: 'Tried again; fake-large is running.' }).waitFor();
      const stream = await llm.nextHeld();
      stream.push('Second', ' try');
      stream.finish();
      const result = await peer.server.request(
        { method: 'tasks/result', params: { taskId: task.taskId } },
        CreateMessageResultSchema
      );
      assert.deepEqual(result.content, { type: 'text', text: 'Second try' });
      await said.filter({ hasText: 'Tried again; fake-large answered Server p.' }).waitFor();
    } finally {
      await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    }
  });

  it('an ordinary (not task) request whose approved run failed comes back too, and can be rejected then', async () => {
    llm.enqueue({ kind: 'error', status: 400, message: 'The model is overloaded again' });
    const asked = peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Fail plainly' } }], maxTokens: 10 }
      },
      CreateMessageResultSchema
    );
    const refused = assert.rejects(asked, /User rejected sampling request/);
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Fail plainly').waitFor();
    await approval.getByRole('button', { name: 'Approve' }).click();
    await approval.locator('.run-failed').filter({ hasText: 'overloaded again' }).waitFor();
    await approval.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    await refused;
    await approval.waitFor({ state: 'detached' });
  });

  it('rejects a request before any model runs', async () => {
    const before = llm.chatRequests.length;
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Anything' } }],
          maxTokens: 10,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.waitFor();
    await approval.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    await approval.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.locator(`tr[data-task-id="${task.taskId}"] [data-status="failed"]`).waitFor();
    assert.equal(llm.chatRequests.length, before, 'no model call after a rejection');
  });

  it('asks for another provider when the one drafted was removed while the request waited', async () => {
    await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: false } });
    const saved = { baseURL: llm.baseURL, models: [{ name: 'fake-small' }, { name: 'fake-large' }] };
    await fixture.host.call('providers.save', { id: 'other', name: 'Other LLM', ...saved, defaultModel: 'fake-large' });
    // Fake LLM's last run failed (the tests above): answering again, it is where the card starts,
    // not the first provider that is not failing.
    assert.equal((await fixture.host.call('providers.test', { providerId: 'fake' })).ok, true);
    try {
      await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
      llm.enqueue({ kind: 'text', tokens: ['From', ' other'] });
      const asked = peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Drafted for fake' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      );
      const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
      await approval.getByText('Drafted for fake').waitFor();
      await fixture.host.call('providers.remove', { providerId: 'fake' });
      const provider = approval.getByLabel('Provider');
      await provider.locator('option', { hasText: 'Fake LLM (removed)' }).waitFor({ state: 'attached' });
      await approval.getByRole('button', { name: 'Approve' }).click();
      await approval.getByText('Fake LLM was removed: choose another.').waitFor();
      assert.equal(await provider.evaluate((field) => field === document.activeElement), true);
      await provider.selectOption({ label: 'Other LLM' });
      assert.equal(await approval.getByLabel('Model').inputValue(), 'fake-large');
      await approval.getByRole('button', { name: 'Approve' }).click();
      assert.deepEqual((await asked).content, { type: 'text', text: 'From other' });
      assert.equal(llm.chatRequests.at(-1)!.body.model, 'fake-large');
    } finally {
      await fixture.host.call('providers.remove', { providerId: 'other' }).catch(() => undefined);
      if (!(await fixture.host.call('providers.list', {})).some((provider) => provider.id === 'fake'))
        await fixture.host.call('providers.save', {
          id: 'fake',
          name: 'Fake LLM',
          ...saved,
          defaultModel: 'fake-small'
        });
      await fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    }
  });

  it('says above the picker the provider and model chosen in it, or that no model is chosen and what Approve does then', async () => {
    // A second provider that lists no model (nothing answers at its address), as a newcomer's broken one.
    await fixture.host.call('providers.save', {
      id: 'broken',
      name: 'Broken',
      baseURL: 'http://127.0.0.1:9/v1',
      models: []
    });
    try {
      await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
      const asked = peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Pick for me' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      );
      const refused = assert.rejects(asked, /User rejected sampling request/);
      const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
      await approval.getByText('Pick for me').waitFor();
      // The line above the picker, as it was the first time: provider · model — why.
      const says = (text: string) => approval.locator('p.meta').getByText(text, { exact: true }).waitFor();
      await says('Fake LLM · fake-small — using the default model of Fake LLM');
      const provider = approval.getByLabel('Provider');
      const model = approval.getByLabel('Model');

      await provider.selectOption({ label: 'Broken' });
      assert.equal(await model.inputValue(), '');
      await says('Broken · no model chosen — Broken lists none: type the name of one it runs to approve');
      await model.fill('broken-model');
      await says('Broken · broken-model — chosen by you, instead of Fake LLM · fake-small');

      // Back on the provider drafted: its default model again, and Taskdesk's reason for it.
      await provider.selectOption({ label: 'Fake LLM' });
      await says('Fake LLM · fake-small — using the default model of Fake LLM');
      await model.fill('fake-large');
      await says('Fake LLM · fake-large — chosen by you, instead of Fake LLM · fake-small');
      await model.fill('');
      await says('Fake LLM · no model chosen — Approve runs fake-small (using the default model of Fake LLM)');

      await approval.getByRole('button', { name: 'Reject' }).click();
      await passUndoWindow(page);
      await refused;
    } finally {
      await fixture.host.call('providers.remove', { providerId: 'broken' });
    }
  });

  it('ranks a message’s own Markdown headings below the card’s title', async () => {
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    const asked = peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: '# Plan\n\n## Steps\n\nWrite the summary.' } }],
          maxTokens: 10
        }
      },
      CreateMessageResultSchema
    );
    const refused = assert.rejects(asked, /User rejected sampling request/);
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.getByText('Write the summary.').waitFor();
    // The card's title is an h3: the message's # and ## come below it, as h5 and h6.
    assert.deepEqual(
      await approval
        .locator('.markdown')
        .locator('h1, h2, h3, h4, h5, h6')
        .evaluateAll((found) => found.map((heading) => `${heading.tagName} ${heading.textContent}`)),
      ['H5 Plan', 'H6 Steps']
    );
    await approval.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    await refused;
  });
});
