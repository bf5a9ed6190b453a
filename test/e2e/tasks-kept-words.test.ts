import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, peerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/** A server's store that keeps its tasks five minutes at most, whatever ttl was asked for. */
class FiveMinuteStore extends ClockedTaskStore {
  override createTask(...[params, ...rest]: Parameters<ClockedTaskStore['createTask']>) {
    return super.createTask({ ...params, ttl: Math.min(params.ttl ?? 300_000, 300_000) }, ...rest);
  }
}

/**
 * The Tasks screen's Kept column and a task's Details say how long it is kept in the same words:
 * the row how long ("Kept for 9 min more"), its detail the same words with who keeps it and until
 * when, which are the row's tooltip too.
 */
describe('how long a task is kept, in its Tasks row and its Details alike, in headless Chromium against the real core', () => {
  const store = new FiveMinuteStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const desk = peerServer('desk');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;
  let receivedKey: string;
  let requestedKey: string;
  let expiresAt: string;

  before(async () => {
    // The page's clock is held still while words are compared, and moved past a task's end.
    d = await startDesk(
      { work, desk },
      { viewport: { width: 1500, height: 1200 }, beforeLoad: (p) => p.clock.install() }
    );
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
    const done = nextEvent(
      d.fixture.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'report' && event.task.outcome !== undefined
    );
    // Taskdesk asks for an hour; the server keeps it five minutes.
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'report',
      arguments: { durationMs: 10 },
      ttlMs: 3_600_000
    });
    assert.ok(call.type === 'task');
    requestedKey = `requested:${call.task.outboundId}`;
    const ended = await done;
    expiresAt = (ended.type === 'changed' && ended.task.expiresAt) || '';
    assert.ok(expiresAt, 'the server said when it lets the task go');
    const asked = await desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which region?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    receivedKey = `received:${asked.task.taskId}`;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await tasks.locator(`tr[data-task-key="${receivedKey}"]`).waitFor();
    await tasks.locator(`tr[data-task-key="${requestedKey}"] [data-status="completed"]`).waitFor();
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  /** The row's Kept words and tooltip, and its detail's Kept words (what was asked for left out). */
  const keptOf = async (key: string) => {
    const row = tasks.locator(`tr[data-task-key="${key}"]`);
    const cell = row.locator('.task-kept');
    const shown = { row: await text(cell), title: (await cell.getAttribute('title')) ?? '' };
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="${key}"]`);
    const dd = detail.locator('.detail-times div', { has: page.locator('dt', { hasText: 'Kept' }) }).locator('dd');
    const kept = { ...shown, detail: await text(dd.locator('.task-kept')), dd: await text(dd) };
    await detail.getByRole('button', { name: 'Close' }).click();
    return kept;
  };

  it('says how long in the row, and the same words with who keeps it and until when in the detail and the tooltip', async () => {
    await page.clock.pauseAt(Date.now() + 1_000);
    const received = await keptOf(receivedKey);
    assert.match(received.row, /^Kept for (10 min|9 min( \d+ s)?) more$/);
    const receivedTime = received.row.replace(/^Kept /, '');
    assert.match(received.detail, new RegExp(`^Kept by Taskdesk ${receivedTime}, until \\S`));
    assert.equal(received.title, received.detail, 'the tooltip says what the detail says');

    const requested = await keptOf(requestedKey);
    assert.match(requested.row, /^Kept for [45] min more$/);
    const requestedTime = requested.row.replace(/^Kept /, '');
    assert.match(requested.detail, new RegExp(`^Kept by the server ${requestedTime}, until \\S`));
    assert.equal(requested.title, requested.detail);
    // What Taskdesk asked for follows, in the detail only.
    assert.equal(requested.dd, `${requested.detail} (Taskdesk asked for 1 h)`);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says in the past tense until when it was kept, once that time has passed, in the row and the detail alike', async () => {
    await page.clock.pauseAt(Date.parse(expiresAt) + 60_000);
    const row = tasks.locator(`tr[data-task-key="${requestedKey}"]`);
    await row.locator('.task-kept', { hasText: /^Was kept until \S/ }).waitFor();
    const requested = await keptOf(requestedKey);
    assert.match(requested.detail, /^Was kept by the server until \S/);
    assert.equal(requested.detail.replace(' by the server', ''), requested.row, 'the same words and date');
    assert.equal(requested.title, requested.detail);
    // What Taskdesk asked for still follows it.
    assert.equal(requested.dd, `${requested.detail} (Taskdesk asked for 1 h)`);
    assert.deepEqual(d.pageErrors, []);
  });
});
