import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/** The Inbox's j past the last card shown while more wait: the next ones show, and the next card takes the focus. */
describe('the Inbox’s keys past its first page of cards, in headless Chromium against the real core', () => {
  const peer = peerServer('pile-peer');
  let desk: DeskFixture;
  const asked: Array<Promise<unknown>> = [];

  before(async () => {
    desk = await startDesk({ pile: peer });
  });

  after(async () => {
    // Answered from the core, so that no request is left waiting.
    for (const item of await desk.fixture.host.call('inbox.list', {}))
      await desk.fixture.host.call('inbox.answer', { id: item.id, answer: { action: 'cancel' } });
    await Promise.allSettled(asked);
    await desk?.close();
  });

  it('shows the next page and moves to its first card when j is pressed on the last card shown', async () => {
    const { page } = desk;
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
    for (let n = 1; n <= 52; n++)
      asked.push(
        peer.server.request(
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: `Pile question ${n}?`,
              requestedSchema: { type: 'object', properties: {} }
            }
          },
          ElicitResultSchema
        )
      );
    await page.getByRole('button', { name: 'Show 2 more' }).waitFor();
    const cards = page.locator('article.inbox-item');
    assert.equal(await cards.count(), 50);
    await cards.nth(49).focus();
    await page.keyboard.press('j');
    await page.getByRole('button', { name: 'Show 2 more' }).waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Pile question 51?') === true);
    assert.equal(await cards.count(), 52);
    // And on, as on the first page.
    await page.keyboard.press('j');
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Pile question 52?') === true);
    assert.deepEqual(desk.pageErrors, []);
  });
});
