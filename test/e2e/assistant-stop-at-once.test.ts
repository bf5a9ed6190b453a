import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, saidTimes } from './live-region.js';

type ChatMessage = { role: string; content?: unknown };

/**
 * Stop pressed the moment a message is sent, as a script (or a quick hand) does: before the
 * host has answered the send, before it has said the model is answering. The answer is stopped
 * all the same, and the chat shows it stopped, as after a Stop pressed later.
 */
describe('the Assistant’s Stop pressed at once after Send (fake LLM)', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
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
    await box().fill('Another long story');
    await box().press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
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
});
