import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, said, saidTimes } from './live-region.js';
import { passUndoWindow } from './undo-window.js';

/** The words a field's `aria-describedby` points at: what a screen reader says after its label. */
const description = (field: Locator) =>
  field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim()
  );

/** Whether `locator` holds the page's focus. */
const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/**
 * Model requests' approval and review cards, as a newcomer met them: the card names what it asks,
 * a model name that the provider does not list is refused on the card, a failed run is said with
 * why, requests that waited for a reply are not said to be new when a provider comes, the keys
 * that answer do nothing on a card's buttons, and the notes say what the person needs to know.
 */
describe('model requests’ approval and review cards, in headless Chromium against the real core', () => {
  const peer: PeerServer = peerServer('walk-peer');
  let d: DeskFixture;
  let page: Page;
  let llm: FakeOpenAIServer;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'] });
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    d = await startDesk(
      { p: peer },
      { host: { keyStore: new InMemoryKeyStore() }, beforeLoad: (opened) => opened.clock.install() }
    );
    page = d.page;
    await d.fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
  });
  after(async () => {
    await d?.close();
    await llm?.close();
  });

  /** Server p's model request with `text` as its message: what it gets back, or the error. */
  const request = (text: string) =>
    peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 60 }
        },
        CreateMessageResultSchema
      )
      .catch((error: unknown) => error);

  it('names each card by what it asks, explains the reply’s model name, and says waiting requests now need approval, not that they are new', async () => {
    await recordSaid(page);
    const storm = request('Write a storm warning for the coast tonight, with the wind speeds and the times');
    const frost = request('Is a frost warning needed for Lillehammer?');
    const stormReply = page.getByRole('article', {
      name: 'Server p asks for a model reply: Write a storm warning for the coast tonight, with the wind…',
      exact: true
    });
    await stormReply.waitFor();
    await page
      .getByRole('article', {
        name: 'Server p asks for a model reply: Is a frost warning needed for Lillehammer?',
        exact: true
      })
      .waitFor();
    // The card's heading says who asks; its name says what too (the message shows in full under it).
    assert.equal(await stormReply.locator('h3').textContent(), 'Server p asks for a model reply');
    // "Model name: human" says what it is.
    assert.equal(
      await description(stormReply.getByLabel('Model name')),
      'The model name Server p is told wrote this reply; “human” says a person wrote it.'
    );

    const before = (await said(page)).length;
    await d.fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-small'
    });
    const stormApproval = page.getByRole('article', {
      name: 'Server p asks to run a model: Write a storm warning for the coast tonight, with the wind…',
      exact: true
    });
    const frostApproval = page.getByRole('article', {
      name: 'Server p asks to run a model: Is a frost warning needed for Lillehammer?',
      exact: true
    });
    await stormApproval.waitFor();
    await frostApproval.waitFor();
    // The same two requests, now to approve: said as such (together, or one by one), never as new.
    // Each line may hold other words the live region took in the same frame: the requests said
    // to need approval are counted, until there are two.
    const counted = await page.waitForFunction(
      ([from, source]) => {
        const count = (window as unknown as { said: string[] }).said
          .slice(from)
          .flatMap((text) => [...text.matchAll(new RegExp(source, 'g'))])
          .map(([, count]) => (count === 'The' ? 1 : Number(count)))
          .reduce((sum, n) => sum + n, 0);
        return count >= 2 && count;
      },
      [before, '(The|\\d+) waiting model requests? now needs? your approval\\.'] as const
    );
    const since = (await said(page)).slice(before);
    assert.equal(await counted.jsonValue(), 2, since.join(' | '));
    assert.deepEqual(
      since.filter((text) => /New in the inbox/.test(text)),
      []
    );

    // The review card is named by what it asks too.
    llm.enqueue({ kind: 'text', tokens: ['No', ' frost'] });
    await frostApproval.getByRole('button', { name: 'Approve' }).click();
    const review = page.getByRole('article', {
      name: 'Review the answer for Server p: Is a frost warning needed for Lillehammer?',
      exact: true
    });
    await review.getByRole('button', { name: 'Send answer' }).click();
    assert.deepEqual(((await frost) as { content?: unknown }).content, { type: 'text', text: 'No frost' });
    await stormApproval.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    assert.match(String(await storm), /rejected/);
    assert.deepEqual(d.pageErrors, []);
  });

  it('refuses a model the provider does not list on the card, and runs nothing', async () => {
    const asked = request('Once upon a time there was a weather report');
    const approval = page.getByRole('article', { name: 'Server p asks to run a model: Once upon a time' });
    await approval.waitFor();
    const model = approval.getByLabel('Model');
    // The provider's models are offered as the field's choices.
    assert.deepEqual(
      await model.evaluate((input) =>
        Array.from((input as HTMLInputElement).list?.options ?? []).map((option) => option.value)
      ),
      ['fake-small', 'fake-large']
    );
    const calls = llm.chatRequests.length;
    await model.fill('n a time in Tromsø');
    await approval.getByRole('button', { name: 'Approve' }).click();
    const error = approval.locator('.field-error', {
      hasText: 'Fake LLM lists no model named “n a time in Tromsø”: choose one it lists: fake-small, fake-large.'
    });
    await error.waitFor();
    assert.equal(await focused(model), true);
    assert.equal(await model.getAttribute('aria-invalid'), 'true');
    assert.equal(llm.chatRequests.length, calls, 'nothing ran');
    assert.equal(d.fixture.host.inbox.list().length, 1, 'the request still waits');
    const health = (await d.fixture.host.call('providers.list', {})).find((p) => p.id === 'fake')?.health;
    assert.notEqual(health?.ok, false, 'the provider is not failing');

    // A listed one runs; the answer, cut off at the token limit, says so until the person rewrites it.
    await model.fill('fake-large');
    await error.waitFor({ state: 'hidden' });
    llm.enqueue({ kind: 'text', tokens: ['Annags', ' and', ' a'], finishReason: 'length' });
    await approval.getByRole('button', { name: 'Approve' }).click();
    const review = page.getByRole('article', { name: 'Review the answer for Server p: Once upon a time' });
    const cutOff = review.locator('.review-cut-off');
    await cutOff.waitFor();
    assert.equal(
      await cutOff.textContent(),
      'Cut off: the model reached the limit of 60 tokens before it finished. Send it as it is, edit it, or reject it.'
    );
    const answer = review.getByLabel('Answer from fake-large (you may edit it)');
    await answer.fill('A calm night on the coast.');
    await cutOff.waitFor({ state: 'detached' });
    // Put back as the model wrote it: it is the model's cut-off answer again.
    await answer.fill('Annags and a');
    await cutOff.waitFor();
    await answer.fill('A calm night on the coast.');
    await review.getByRole('button', { name: 'Send answer' }).click();
    assert.deepEqual(((await asked) as { content?: unknown }).content, {
      type: 'text',
      text: 'A calm night on the coast.'
    });
    assert.deepEqual(d.pageErrors, []);
  });

  it('says a failed run with why, not as a new request, and says it once on the card', async () => {
    await recordSaid(page);
    const asked = request('Summarise wind data for the coast');
    const approval = page.getByRole('article', { name: 'Server p asks to run a model: Summarise wind data' });
    await approval.waitFor();
    // Said with whatever else the live region took in the same frame.
    await saidTimes(page, /New in the inbox: a model request from Server p\./);
    const before = (await said(page)).length;
    llm.enqueue({ kind: 'error', status: 400, message: 'This model cannot read that.' });
    await approval.getByRole('button', { name: 'Approve' }).click();
    const failed = approval.locator('.run-failed');
    // The provider fails since this run: the failed run's box says so once, with the way to its card.
    await failed.getByRole('link', { name: 'Open Fake LLM in LLM providers' }).waitFor();
    assert.match(
      (await failed.textContent()) ?? '',
      /^The run you approved on fake-small \(Fake LLM\) failed .+: Fake LLM \(127\.0\.0\.1:\d+\) rejected the request \(400\): This model cannot read that\. Try it again, .+ Open Fake LLM in LLM providers\.$/
    );
    assert.equal(await approval.locator('.provider-failing').count(), 0, 'not said twice');
    await saidTimes(
      page,
      /The model run for Server p failed: Fake LLM \(127\.0\.0\.1:\d+\) rejected the request \(400\)/
    );
    assert.deepEqual(
      (await said(page)).slice(before).filter((text) => /New in the inbox/.test(text)),
      [],
      'its request back is no new request'
    );

    await approval.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    assert.match(String(await asked), /rejected/);
    assert.deepEqual(d.pageErrors, []);
  });

  it('answers nothing from letters typed on a card’s button; Escape goes back to the card, whose keys then act', async () => {
    await recordSaid(page);
    const asked = request('Translate the Tromsø alert to English');
    const approval = page.getByRole('article', { name: 'Server p asks to run a model: Translate the Tromsø' });
    await approval.waitFor();
    const id = (await approval.getAttribute('data-inbox-id'))!;
    const reject = approval.getByRole('button', { name: 'Reject' });
    await reject.focus();
    // A sentence typed by someone who took the button for a text field: no Reject, no Undo, no Open.
    await page.keyboard.type('dadundoataxi');
    const held = page.locator(`.inbox-held[data-held-id="${id}"]`);
    assert.equal(await held.count(), 0, 'not rejected');
    assert.equal(await approval.isVisible(), true);
    assert.equal(await focused(reject), true, 'the focus stays on the button');
    assert.equal(await approval.getByLabel('Model').inputValue(), 'fake-small', 'nothing typed into the Model field');
    assert.equal(d.fixture.host.inbox.list().length, 1);

    // Escape: back to the card itself, where d rejects and u undoes.
    await page.keyboard.press('Escape');
    assert.equal(await focused(approval), true);
    await page.keyboard.press('d');
    await held.waitFor();
    await page.keyboard.press('u');
    await approval.waitFor();
    await saidTimes(page, /Brought back Server p’s model request/);

    // The keys' help says so.
    await approval.focus();
    await page.keyboard.press('?');
    const help = page.locator('dialog.keys-help');
    await help
      .getByText('From a field or button of an item, back to the item itself (then its keys work again)')
      .waitFor();
    await help
      .getByText(
        'On an item, a, d, x, u, o and Enter act only when the item itself has the focus (outlined as a whole), never while one of its buttons, links or fields has it: press Escape to go back to the item.'
      )
      .waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    await reject.click();
    await passUndoWindow(page);
    assert.match(String(await asked), /rejected/);
    assert.deepEqual(d.pageErrors, []);
  });
});
