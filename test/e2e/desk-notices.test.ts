import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ElicitResultSchema,
  RELATED_TASK_META_KEY,
  CreateMessageResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { systemClock } from '../../app/core/clock.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';
import { recordSaid, saidTimes } from './live-region.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveUnreachableProvider } from '../support/assistant-fixture.js';

const form = { mode: 'form', requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } } } as const;

/**
 * The notices under the bar: none for what the person did themselves, and however many there
 * are, they keep compact within a fifth of a small window (all shown, a third), each Close reachable by keyboard.
 */
describe('the notices at the top of the Desk', () => {
  const { mcp, peer: work } = createTaskToolPeer({ clock: systemClock, pollInterval: 50 });
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

    // Everything the live region says from here on (the cancel is said after the question went).
    await recordSaid(page);
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.locator(`tr[data-task-key="requested:${task.outboundId}"]`);
    await row.getByRole('button', { name: /^Cancel / }).click();
    await row.locator('[data-status="cancelled"]').waitFor();
    assert.equal((await asked).action, 'cancel');
    await saidTimes(
      page,
      /Taskdesk withdrew Server work’s question “Which archive, for the task\?”: .* was cancelled by you\./
    );
    assert.equal(await page.locator('.notice-withdrawn').count(), 0, 'no notice of what the person did');
    assert.equal(await page.locator('.inbox-item').count(), 0);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('in an 800×600 window shows several notices compact, the newest and "and N more", each reachable by keyboard', async () => {
    const { page } = desk;
    await page.setViewportSize({ width: 800, height: 600 });
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
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
      const first = page.locator('.notice-withdrawn').filter({ hasText: 'Withdrawn question 1 of the pile?' });
      if (n === 1) await first.getByRole('button', { name: 'Close notice' }).focus();
      if (n === 2) {
        // A newer notice arrives while the person is in the first: it is not hidden from under the focus.
        await page.waitForFunction(() => document.querySelectorAll('.notice-withdrawn').length === 2);
        assert.equal(await first.isVisible(), true);
        assert.equal(
          await first.getByRole('button', { name: 'Close notice' }).evaluate((b) => b === document.activeElement),
          true
        );
        // Once the focus leaves the notices, the stack is compact again.
        await page.locator('#heading-inbox').focus();
        await first.waitFor({ state: 'hidden' });
      }
    }
    const strip = page.locator('.notices');
    const notices = strip.locator('.notice-withdrawn');
    await page.waitForFunction((n) => document.querySelectorAll('.notice-withdrawn').length === n, count);
    const fifth = 600 / 5;
    const stripHeight = async () => (await strip.boundingBox())?.height ?? Infinity;

    // Compact: the newest alone, and a button to the others (a screen reader hears it is collapsed).
    const more = strip.getByRole('button', { name: `and ${count - 1} more notices` });
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.ok((await stripHeight()) <= fifth, `the notices take ${await stripHeight()}px of 600`);
    const shown = strip.locator('.notice-withdrawn:visible');
    assert.deepEqual(
      (await shown.allTextContents()).map((text) => /Withdrawn question (\d) of the pile/.exec(text)?.[1]),
      [`${count}`]
    );
    assert.equal(
      await strip.getByRole('button', { name: 'Close notice' }).count(),
      1,
      'the others are out of reach until shown'
    );
    // The work under them is in sight: the screen starts in the top half of the window.
    const [heading, stripBox] = await Promise.all([page.locator('#heading-inbox').boundingBox(), strip.boundingBox()]);
    assert.ok(
      heading && stripBox && heading.y >= stripBox.y + stripBox.height && heading.y + heading.height <= 600 / 2,
      `the Inbox is out of sight: ${JSON.stringify({ heading, stripBox })}`
    );

    // By keyboard: from the newest's Close to "and 4 more", Enter shows them all, newest first.
    await shown.getByRole('button', { name: 'Close notice' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await more.evaluate((button) => button === document.activeElement), true);
    await page.keyboard.press('Enter');
    const fewer = strip.getByRole('button', { name: 'Show only the newest notice' });
    assert.equal(await fewer.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(
      (await notices.allTextContents()).map((text) => /Withdrawn question (\d) of the pile/.exec(text)?.[1]),
      ['5', '4', '3', '2', '1']
    );
    // Within a third of the window, scrolling: each Close is reached by Tab, in sight within the strip.
    assert.ok((await stripHeight()) <= 600 / 3, `the notices take ${await stripHeight()}px of 600`);
    const dismisses = strip.getByRole('button', { name: 'Close notice' });
    assert.equal(await dismisses.count(), count);
    await page.locator('.topbar nav a').last().focus();
    for (let n = 0; n < count; n++) {
      await page.keyboard.press('Tab');
      const dismiss = dismisses.nth(n);
      assert.equal(
        await dismiss.evaluate((button) => button === document.activeElement),
        true,
        `Close ${n} has the focus`
      );
      // In sight: within the strip, and above the way back, which stays at its foot.
      const [button, box, foot] = await Promise.all([dismiss.boundingBox(), strip.boundingBox(), fewer.boundingBox()]);
      assert.ok(
        button && box && foot && button.y >= box.y - 0.5 && button.y + button.height <= foot.y + 0.5,
        `Close ${n} is out of sight: ${JSON.stringify({ button, box, foot })}`
      );
    }

    // Closed one by one by keyboard, the newest first; down to one, no button to the others.
    for (let left = count; left > 0; left--) {
      await page.waitForFunction((n) => document.querySelectorAll('.notice-withdrawn').length === n, left);
      await notices.first().getByRole('button', { name: 'Close notice' }).focus();
      await page.keyboard.press('Enter');
      if (left === 2) await more.or(fewer).waitFor({ state: 'detached' });
    }
    await notices.first().waitFor({ state: 'detached' });
    assert.equal(await strip.count(), 0, 'no empty strip is left');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('closes several notices at once, keeping the one that holds what the person typed', async () => {
    const { page } = desk;
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    const withdraw = async (message: string, typed?: string) => {
      const controller = new AbortController();
      const asked = plain.server
        .elicitInput(
          { mode: 'form', message, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } },
          { signal: controller.signal }
        )
        .catch((error: unknown) => error);
      const card = page.locator('.inbox-item').filter({ hasText: message });
      await card.waitFor();
      if (typed !== undefined) await card.getByLabel('note').fill(typed);
      controller.abort('the server gave up');
      await asked;
      await page.locator('.notice-withdrawn').filter({ hasText: message }).waitFor({ state: 'attached' });
    };
    await withdraw('Gone question A?');
    await withdraw('Gone question B?', 'my careful words');
    await withdraw('Gone question C?');
    const strip = page.locator('.notices');
    const closeAll = strip.getByRole('button', { name: 'Close 2 notices, not the one with what you wrote' });
    await page.screenshot({ path: path.join(root, '.tmp/notices-close-all.png') });
    await closeAll.click();
    const left = strip.locator('.notice-withdrawn');
    await page.waitForFunction(() => document.querySelectorAll('.notice-withdrawn').length === 1);
    assert.match((await left.textContent()) ?? '', /Gone question B\?.*my careful words/s);
    // The button went with the notices: the focus is on the kept notice's Close, not lost.
    assert.equal(
      await left.getByRole('button', { name: 'Close notice' }).evaluate((close) => close === document.activeElement),
      true
    );
    assert.equal(await closeAll.count(), 0, 'one notice left: nothing to close at once');

    // With nothing typed in any, the button closes them all.
    await left.getByRole('button', { name: 'Close notice' }).click();
    await withdraw('Gone question D?');
    await withdraw('Gone question E?');
    await strip.getByRole('button', { name: 'Close all 2 notices' }).click();
    await strip.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });
});

/**
 * A model run made without asking that failed is a warning on the Desk that names where to look
 * (LLM providers, the Servers screen): it links them, in its words' order and before its Close,
 * each a link the keyboard reaches that opens its screen.
 */
describe('the notice of a failed run made without asking, in headless Chromium against the real core', () => {
  const peer: PeerServer = peerServer('unasked-peer');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({ a: peer }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await saveUnreachableProvider(d.fixture.host);
    await d.fixture.host.call('sampling.setPolicy', {
      serverId: 'a',
      policy: { mode: 'auto', reviewCompletion: false }
    });
  });

  after(() => d?.close());

  it('links LLM providers and the Servers screen, before its Close, and each opens its screen', async () => {
    const failed = await peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .then(
        () => false,
        () => true
      );
    assert.equal(failed, true);
    const banner = page.locator('.host-warning').filter({ hasText: 'ran without asking' });
    await banner.waitFor();
    assert.match(
      (await banner.locator('.host-warning-text').textContent()) ?? '',
      /Check Broken local under LLM providers, or set Server a to Ask me first on the Servers screen\.Open Broken local in LLM providersOpen the Servers screen$/
    );
    // In the banner's text order, and the Close after them: what Tab goes through.
    const reachable = await banner.evaluate((element) =>
      Array.from(element.querySelectorAll<HTMLElement>('a[href], button')).map((item) =>
        item.tagName === 'A' ? `${item.textContent} ${item.getAttribute('href')}` : item.textContent
      )
    );
    assert.deepEqual(reachable, [
      'Open Broken local in LLM providers #providers/broken',
      'Open the Servers screen #servers',
      'Close notice'
    ]);

    const providers = banner.getByRole('link', { name: 'Open Broken local in LLM providers' });
    await providers.focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await banner
        .getByRole('link', { name: 'Open the Servers screen' })
        .evaluate((link) => link === document.activeElement),
      true
    );
    await page.keyboard.press('Tab');
    assert.equal(
      await banner
        .getByRole('button', { name: 'Close notice' })
        .evaluate((button) => button === document.activeElement),
      true
    );

    // Enter on a link opens its screen at the provider's card, whose heading takes the focus; the
    // notice stays until closed.
    await providers.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#providers\/broken$/);
    await page.waitForFunction(
      () => document.activeElement === document.querySelector('li[data-provider-id="broken"] h3')
    );
    assert.equal(await page.locator('#screen-providers').isVisible(), true);
    await banner.getByRole('link', { name: 'Open the Servers screen' }).click();
    await page.waitForURL(/#servers$/);
    await page.waitForFunction(() => document.activeElement?.id === 'heading-servers');
    assert.equal(await page.locator('#screen-servers').isVisible(), true);
    // Again, from the screen it leads to: the address does not change, and the focus goes to its top all the same.
    const servers = banner.getByRole('link', { name: 'Open the Servers screen' });
    await servers.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'heading-servers');
    assert.equal(await page.locator('li[data-server-id="a"]').isVisible(), true);
    assert.deepEqual(d.pageErrors, []);
  });
});
