import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { inboxHolds, peerServer } from '../support/host-fixture.js';
import { restartFixture } from './restart-fixture.js';
import { passUndoWindow } from './undo-window.js';

const STOPPED = 'Taskdesk stopped before it was answered; the server was not answered';

/**
 * A question without a task does not outlive Taskdesk: a clean close cancels it. The next start
 * says so once, in the host-warning banner, and History says who cancelled it, once.
 */
describe('plain work a clean close cancelled, in headless Chromium against the real core', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;

  before(() => restart.build());
  after(() => restart.close());

  it('tells at the next start what was cancelled, and History says “Cancelled by Taskdesk” once with the reason', async () => {
    const peer = peerServer('desk-peer');
    const first = await restart.host({ desk: peer });
    const asked = peer.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Which city should the report cover, and for which quarter of the year?',
            requestedSchema: { type: 'object', properties: { city: { type: 'string' } } }
          }
        },
        ElicitResultSchema
      )
      .catch(() => 'not answered');
    await inboxHolds(first.host, 1);
    await first.stop();
    assert.equal(await asked, 'not answered');

    const second = peerServer('desk-peer');
    let fixture = await restart.host({ desk: second });
    // The page's clock installed: the Dismiss below is sent when the test ends its undo window.
    const page = await restart.open(fixture, { beforeLoad: (tab) => tab.clock.install() });

    const banner = page.locator('.banners .host-warning[role="alert"]');
    await banner.first().waitFor();
    assert.deepEqual(
      (await banner.locator('p').allTextContents()).map((text) =>
        /^When Taskdesk last closed \(at [^)]+\), 1 question without a task was waiting, from Server desk \(“Which city should the report cover, and for which quarter o…”\): Taskdesk cancelled it; the server that asked was not answered\. History lists it as “Cancelled by Taskdesk”\.$/.test(
          text
        )
      ),
      [true]
    );

    // As wide as the screen's content, at a small window's width too.
    await page.setViewportSize({ width: 800, height: 600 });
    const edges = (selector: string) =>
      page.evaluate((s) => {
        const element = document.querySelector(s)!;
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return [box.left + parseFloat(style.paddingLeft), box.right - parseFloat(style.paddingRight)];
      }, selector);
    const warningBox = await banner.boundingBox();
    assert.deepEqual(
      [warningBox?.x, (warningBox?.x ?? 0) + (warningBox?.width ?? 0)],
      await edges('main'),
      'the warning lines up with the screen'
    );
    // Its Close beside the words, not on a line of its own under them.
    const dismissBox = await banner.getByRole('button', { name: 'Close notice' }).boundingBox();
    const wordsBox = await banner.locator('.host-warning-text').boundingBox();
    assert.ok(
      dismissBox &&
        wordsBox &&
        dismissBox.y < wordsBox.y + wordsBox.height &&
        dismissBox.x > wordsBox.x + wordsBox.width,
      `Close (${JSON.stringify(dismissBox)}) beside the words (${JSON.stringify(wordsBox)})`
    );

    // Closed in this window, and a reload does not bring it back.
    await banner.getByRole('button', { name: 'Close notice' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.tagName === 'H2');
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    // The event stream starts with the host's warnings: a question heard after them is in sight.
    const later = second.server.elicitInput({
      mode: 'form',
      message: 'Anything after the reload?',
      requestedSchema: { type: 'object', properties: {} }
    });
    await page.locator('a[data-screen="inbox"]').click();
    const card = page.locator('.inbox-item').filter({ hasText: 'Anything after the reload?' });
    await card.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await passUndoWindow(page);
    assert.equal((await later).action, 'cancel');
    assert.equal(await banner.count(), 0, 'a reload does not bring a dismissed warning back');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    const row = history.locator('.history-list li').filter({ hasText: 'Which city should the report cover' });
    await row.waitFor();
    assert.match(
      (await row.locator('.meta').textContent()) ?? '',
      /^Question without a task · from Server desk · Cancelled by Taskdesk · /
    );

    await row.getByRole('button').first().click();
    const detail = history.locator('.history-detail');
    await detail.locator('.meta').waitFor();
    assert.equal(
      await detail.locator('.meta').first().textContent(),
      `Asked by Server desk without a task · Cancelled by Taskdesk · ${STOPPED}`
    );
    assert.equal(await detail.locator('.meta [data-status="cancelled"]').textContent(), 'Cancelled by Taskdesk');

    assert.deepEqual(pageErrors, []);

    // Said once: the start after this one says nothing.
    await fixture.stop();
    fixture = await restart.host({ desk: peerServer('desk-peer') });
    assert.deepEqual(fixture.host.warnings, []);
  });
});
