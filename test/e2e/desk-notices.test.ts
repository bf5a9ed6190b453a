import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { systemClock } from '../../app/core/clock.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { createTaskToolServer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

const form = { mode: 'form', requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } } } as const;

/**
 * The notices under the bar: none for what the person did themselves, and however many there
 * are, they keep to a third of a small window, each Dismiss reachable.
 */
describe('the notices at the top of the Desk', () => {
  const { server: mcp } = createTaskToolServer({ clock: systemClock, pollInterval: 50 });
  const work: PeerServer = {
    server: mcp.server,
    notifications: [],
    nextNotification: () => new Promise(() => undefined)
  };
  const plain = peerServer('plain-peer');
  let desk: DeskFixture;

  before(async () => {
    desk = await startDesk({ work, plain });
  });

  after(async () => {
    await desk?.close();
  });

  it('shows no notice when the person cancels the task a question waits for: a screen reader hears it', async () => {
    const { page, fixture } = desk;
    const outcome = await fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 3_600_000 }
    });
    assert.equal(outcome.type, 'task');
    const task = (outcome as { task: OutboundTaskView }).task;
    const asked = mcp.server.request(
      {
        method: 'elicitation/create',
        params: {
          ...form,
          message: 'Which archive, for the task?',
          _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } }
        }
      },
      ElicitResultSchema
    );
    await page.locator('.inbox-item').filter({ hasText: 'Which archive, for the task?' }).waitFor();

    // The live region says one thing at a time (the cancel is said after): every message is kept.
    await page.evaluate(() => {
      const said: string[] = [];
      (window as unknown as { said: string[] }).said = said;
      const region = document.querySelector('.sr-only[aria-live="polite"]')!;
      new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, {
        childList: true,
        characterData: true,
        subtree: true
      });
    });
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.locator(`tr[data-task-key="requested:${task.outboundId}"]`);
    await row.getByRole('button', { name: /^Cancel / }).click();
    await row.locator('[data-status="cancelled"]').waitFor();
    assert.equal((await asked).action, 'cancel');
    await page.waitForFunction(() =>
      (window as unknown as { said: string[] }).said.some((text) =>
        /Taskdesk withdrew Server work’s question “Which archive, for the task\?”: .* was cancelled by you\./.test(text)
      )
    );
    assert.equal(await page.locator('.notice-withdrawn').count(), 0, 'no notice of what the person did');
    assert.equal(await page.locator('.inbox-item').count(), 0);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('in an 800×600 window keeps several notices within a third of its height, each Dismiss reachable', async () => {
    const { page } = desk;
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    const count = 5;
    for (let n = 1; n <= count; n++) {
      const controller = new AbortController();
      const asked = plain.server
        .elicitInput(
          {
            mode: 'form',
            message: `Withdrawn question ${n} of the pile?`,
            requestedSchema: { type: 'object', properties: { note: { type: 'string' } } }
          },
          { signal: controller.signal }
        )
        .catch((error: unknown) => error);
      await page
        .locator('.inbox-item')
        .filter({ hasText: `Withdrawn question ${n} of the pile?` })
        .waitFor();
      controller.abort('the server gave up');
      await asked;
    }
    const notices = page.locator('.notice-withdrawn');
    await notices.nth(count - 1).waitFor();
    const strip = page.locator('.notices');
    const { height, scrolls } = await strip.evaluate((element) => ({
      height: element.getBoundingClientRect().height,
      scrolls: element.scrollHeight > element.clientHeight
    }));
    assert.ok(height <= 600 / 3 + 1, `the notices take ${height}px of 600`);
    assert.ok(scrolls, 'the notices scroll within their strip');

    // The last one's Dismiss is reached by scrolling the strip, and inside it once there.
    const lastDismiss = notices.nth(count - 1).getByRole('button', { name: 'Dismiss' });
    await lastDismiss.scrollIntoViewIfNeeded();
    const [button, box] = await Promise.all([lastDismiss.boundingBox(), strip.boundingBox()]);
    assert.ok(
      button && box && button.y >= box.y && button.y + button.height <= box.y + box.height,
      `the Dismiss is out of the strip: ${JSON.stringify({ button, box })}`
    );
    await lastDismiss.click();
    for (let left = count - 1; left > 0; left--) {
      await page.waitForFunction((n) => document.querySelectorAll('.notice-withdrawn').length === n, left);
      await notices.first().getByRole('button', { name: 'Dismiss' }).click();
    }
    await notices.first().waitFor({ state: 'detached' });
    assert.equal(await strip.count(), 0, 'no empty strip is left');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(desk.pageErrors, []);
  });
});
