import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Locator, Page, Request, Route } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, said, saidTimes } from './live-region.js';

type ChatMessage = { role: string; content?: unknown };

const methodOf = (request: Request) => (request.postDataJSON() as { method?: string } | null)?.method;

/**
 * Holds the page's `assistant.send` until `release`: on its way to the host (`'request'`: the host
 * has not the message yet), or once the host has answered it, its answer kept from the page
 * (`'answer'`: the host has taken the message, and the model may have answered since).
 */
async function holdSend(
  page: Page,
  where: 'request' | 'answer'
): Promise<{ held: Promise<void>; release: () => Promise<void> }> {
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  const handled: Array<Promise<void>> = [];
  const handler = (route: Route) => {
    if (methodOf(route.request()) !== 'assistant.send') return route.fallback();
    const handling = (async () => {
      if (where === 'request') {
        arrived();
        await gate;
        await route.fallback();
      } else {
        const response = await route.fetch();
        arrived();
        await gate;
        await route.fulfill({ response });
      }
    })();
    handled.push(handling);
    return handling;
  };
  await page.route('**/api/call', handler);
  let released = false;
  return {
    held,
    release: async () => {
      if (released) return;
      released = true;
      letGo();
      await Promise.all(handled);
      await page.unroute('**/api/call', handler);
    }
  };
}

/**
 * Stop pressed the moment a message is sent, as a script (or a quick hand) does: before the
 * host has answered the send, before it has said the model is answering. The answer is stopped
 * all the same, and the chat shows it stopped, as after a Stop pressed later; a Stop that came
 * once a quick answer had ended stopped nothing, and nothing is said of it.
 */
describe('the Assistant’s Stop pressed at once after Send (fake LLM)', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  /** Sends still held, let go after each test (also after a failed one). */
  const releases: Array<() => Promise<void>> = [];
  const pane = (): Locator => page.locator('section.chat-pane');
  const box = (): Locator => pane().getByLabel('Your message');
  const lastAnswer = (): Locator =>
    pane().getByRole('log', { name: 'Messages' }).locator('[data-role="assistant"]').last();

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({}, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await d.fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }]
    });
    await page.locator('nav').getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await box().waitFor();
    await recordSaid(page);
  });

  afterEach(async () => {
    for (const release of releases.splice(0)) await release();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  /** After Stop: the model's request closed by Taskdesk, the answer shown stopped, Send back, "Stopped." said. */
  async function assertStopped(times: number): Promise<void> {
    const held = await llm.nextHeld();
    await lastAnswer().getByText('(stopped)', { exact: true }).waitFor();
    await held.closed;
    assert.equal(held.closedByClient, true, 'the model’s request was closed: the answer did not run to its end');
    await pane().getByRole('button', { name: 'Send' }).waitFor();
    await saidTimes(page, /^Stopped\.$/, times);
    const id = (await pane().getAttribute('data-conversation-id'))!;
    const c = await d.fixture.host.call('assistant.get', { conversationId: id });
    assert.equal(c.status, 'idle');
    const last = c.messages.at(-1);
    assert.ok(
      last?.role === 'assistant' && last.stopped === true && last.text === '',
      'an answer stopped before its first word'
    );
    assert.deepEqual(d.pageErrors, []);
  }

  it('stops the answer when Stop is clicked in the same moment as Send, before the host has answered', async () => {
    llm.enqueue({ kind: 'hold' });
    await box().fill('Tell me a long story');
    // One script, no wait for the host: Enter in the box, then a click on the button beside it
    // as soon as the page has changed it (an observer's callback: no host message comes between).
    const clicked = await box().evaluate(
      (field) =>
        new Promise<string | null>((resolve) => {
          const row = field.parentElement!;
          const observer = new MutationObserver(() => {
            observer.disconnect();
            const button = row.querySelector<HTMLButtonElement>('button:last-of-type')!;
            resolve(button.textContent);
            button.click();
          });
          observer.observe(row, { subtree: true, childList: true, characterData: true, attributes: true });
          field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        })
    );
    assert.equal(clicked, '■ Stop', 'Send gave way to Stop at once');
    await assertStopped(1);
  });

  it('stops the answer on Enter on Stop right after Enter sent the message, by keyboard with no wait', async () => {
    llm.enqueue({ kind: 'hold' });
    // Held on its way to the host: the Stop is pressed before the host has the message, every time.
    const sending = await holdSend(page, 'request');
    releases.push(sending.release);
    const asked = llm.chatRequests.length;
    await box().fill('Another long story');
    await box().press('Enter');
    await sending.held;
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // Kept until the host has the message: Stop waits, unavailable, and the model is not asked yet.
    await pane().locator('button.chat-stop[aria-disabled="true"]').waitFor();
    assert.equal(llm.chatRequests.length, asked);
    await sending.release();
    await assertStopped(2);

    // The model is asked on: what it reads holds the person's two messages, not the empty answers.
    llm.enqueue({ kind: 'text', tokens: ['A short one.'] });
    await box().fill('A short one, then');
    await box().press('Enter');
    await lastAnswer().getByText('A short one.').waitFor();
    const sent = llm.chatRequests.at(-1)!.body.messages as ChatMessage[];
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'user', 'user']
    );
    assert.deepEqual(d.pageErrors, []);
  });

  it('says nothing of a Stop that came after a quick answer had ended, and shows the answer whole', async () => {
    await recordSaid(page);
    llm.enqueue({ kind: 'text', tokens: ['Here', ' it is.'] });
    // The host takes the message and the model answers it before the page hears that it was taken.
    const sending = await holdSend(page, 'answer');
    releases.push(sending.release);
    await box().fill('A quick one');
    await box().press('Enter');
    const stopButton = pane().locator('button.chat-stop');
    await stopButton.click();
    // Kept until the host has taken the message: the Stop waits, unavailable.
    await pane().locator('button.chat-stop[aria-disabled="true"]').waitFor();
    await sending.held;
    const answer = pane()
      .getByRole('log', { name: 'Messages' })
      .locator('[data-role="assistant"]', { hasText: 'Here it is.' });
    await answer.waitFor();
    const id = (await pane().getAttribute('data-conversation-id'))!;
    const answered = await d.fixture.host.call('assistant.get', { conversationId: id });
    assert.equal(answered.status, 'idle', 'the answer had ended before the Stop was sent');

    const stopAnswered = page.waitForResponse((response) => methodOf(response.request()) === 'assistant.stop');
    await sending.release();
    await stopAnswered;
    await pane().getByRole('button', { name: 'Send' }).waitFor();
    // The chat goes on; what the live region says of the next answer comes after anything said of the Stop.
    llm.enqueue({ kind: 'text', tokens: ['And another.'] });
    await box().fill('One more');
    await box().press('Enter');
    await lastAnswer().getByText('And another.').waitFor();
    await saidTimes(page, /is complete\./, 2);
    assert.deepEqual(
      (await said(page)).filter((text) => /Stopped/.test(text)),
      [],
      'a Stop that stopped nothing is not said'
    );
    assert.equal(await answer.getByText('(stopped)', { exact: true }).count(), 0, 'the answer shows whole');
    const c = await d.fixture.host.call('assistant.get', { conversationId: id });
    const kept = c.messages.find((m) => m.role === 'assistant' && m.text === 'Here it is.');
    assert.ok(kept?.role === 'assistant' && kept.stopped !== true);
    assert.deepEqual(d.pageErrors, []);
  });
});
