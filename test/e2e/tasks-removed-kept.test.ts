import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { nextEvent, tempDir, type PeerServer } from '../support/host-fixture.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * The walk a newcomer took: a server of their own (saved, so it can be removed; Taskdesk starts
 * it itself), one tool task of it completed and one cancelled, Taskdesk restarted (the server
 * with it, without those tasks), then the server removed. What the Desk says of how those tasks
 * are kept must hold after the removal: the result Taskdesk kept, or that the removed server no
 * longer keeps the task, never the server's countdown.
 */
describe('requested tasks of a server the person removed, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const data = tempDir();
  const pageErrors: string[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  /** The peer each start of Taskdesk joins the server to: a new one is the server started again. */
  let peer: PeerServer;

  const start = (): Host =>
    createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      transportFactory: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peer.server.connect(serverSide);
        return clientSide;
      }
    });

  before(async () => {
    built = await buildRenderer();
  });
  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    data.remove();
    built?.remove();
  });

  /** The Desk open on `host`, closed with the test (or sooner, by `close`). */
  const open = async (host: Host): Promise<{ page: Page; close: () => Promise<void> }> => {
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1200, height: 1000 }
    });
    const close = async () => {
      await browser.close();
      await server.close();
    };
    closers.push(close);
    return { page, close };
  };

  const nav = (page: Page, name: string) => page.locator('nav').getByRole('link', { name, exact: true }).click();
  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('says the result is kept by Taskdesk, or that Taskdesk no longer asks the removed server for the task', async () => {
    peer = createTaskToolPeer({ clock: systemClock }).peer;
    const first = start();
    await first.call('servers.add', {
      id: 'work',
      name: 'Task tools',
      transport: { type: 'stdio', command: 'in-memory-work' },
      autoConnect: true
    });
    assert.equal((await first.connect('work')).state.status, 'ready');
    // The Desk open before the restart, as the person's was (and the page keeps the test running).
    const before = await open(first);
    const done = nextEvent(
      first,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.outcome !== undefined && event.task.state === 'completed'
    );
    const completed = await first.call('tools.call', {
      serverId: 'work',
      name: 'work-required',
      arguments: { durationMs: 10, label: 'finished' }
    });
    const cancelled = await first.call('tools.call', {
      serverId: 'work',
      name: 'work-required',
      arguments: { durationMs: 600_000, label: 'stopped' }
    });
    assert.ok(completed.type === 'task' && cancelled.type === 'task');
    await done;
    assert.equal((await first.call('outbound.cancel', { outboundId: cancelled.task.outboundId })).state, 'cancelled');
    await before.close();
    await first.close();
    await peer.server.close();

    // Taskdesk starts again, and the server with it: a new process, with none of its tasks.
    peer = createTaskToolPeer({ clock: systemClock }).peer;
    const host = start();
    closers.push(async () => {
      await host.close();
      await peer.server.close();
    });
    assert.equal((await host.connect('work')).state.status, 'ready');
    const { page } = await open(host);

    await nav(page, 'Tasks');
    const tasks = page.getByRole('region', { name: 'Tasks' });
    // Every status: the cancelled task is not listed by the default filter.
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Status').selectOption('');
    const doneRow = tasks.locator(`tr[data-task-key="requested:${completed.task.outboundId}"]`);
    const cancelledRow = tasks.locator(`tr[data-task-key="requested:${cancelled.task.outboundId}"]`);
    // Before the removal, as the walk found them: right.
    await doneRow.locator('.task-kept', { hasText: 'Result kept by Taskdesk' }).waitFor();
    assert.equal(await text(cancelledRow.locator('.task-kept')), 'May no longer be kept');

    await nav(page, 'Servers');
    await page.locator('li[data-server-id="work"]').getByRole('button', { name: 'Remove Task tools' }).click();
    await page
      .getByRole('dialog', { name: 'Remove Task tools?' })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await page.locator('li[data-server-id="work"]').waitFor({ state: 'detached' });

    // Its tasks stay listed, and say what holds now: not the server's countdown.
    await nav(page, 'Tasks');
    await doneRow.waitFor();
    assert.equal(await text(doneRow.locator('.task-kept')), 'Result kept by Taskdesk');
    assert.equal(
      await doneRow.locator('.task-kept').getAttribute('title'),
      'Result kept by Taskdesk; the server was removed'
    );
    assert.equal(await text(cancelledRow.locator('.task-kept')), 'No longer kept');
    assert.equal(
      await cancelledRow.locator('.task-kept').getAttribute('title'),
      'No longer kept: the server was removed, and Taskdesk no longer asks it for the task'
    );

    // Each one's detail: the same words, with who keeps it (or not) and why.
    for (const [row, outboundId, words] of [
      [doneRow, completed.task.outboundId, 'Result kept by Taskdesk; the server was removed'],
      [
        cancelledRow,
        cancelled.task.outboundId,
        'No longer kept: the server was removed, and Taskdesk no longer asks it for the task'
      ]
    ] as const) {
      await row.getByRole('button', { name: /^Details of / }).click();
      const detail = tasks.locator(`.task-detail[data-task-key="requested:${outboundId}"]`);
      await detail.waitFor();
      assert.equal(await text(detail.locator('.task-kept')), words);
      assert.doesNotMatch(await text(detail), /Kept by the server|more, until/);
      await detail.getByRole('button', { name: 'Close' }).click();
    }

    // The Tools screen's cards of its calls say the same, in its own words.
    await nav(page, 'Tools');
    const calls = page.getByRole('region', { name: 'Tool calls' });
    const card = (outboundId: string) => calls.locator(`li[data-outbound-id="${outboundId}"] .task-kept`);
    assert.equal(await text(card(completed.task.outboundId)), 'Taskdesk keeps its result; the server was removed');
    assert.equal(
      await text(card(cancelled.task.outboundId)),
      'the server was removed; Taskdesk no longer asks it for the task'
    );

    // History says how each ended and keeps the result, and claims nothing of how long it is kept.
    await nav(page, 'History');
    const history = page.getByRole('region', { name: 'History' });
    const entry = history.locator('li', { hasText: 'label: "finished"' });
    await entry.getByRole('button').first().click();
    const detail = history.locator('.history-detail');
    await detail.getByText('done: finished', { exact: true }).first().waitFor();
    assert.match(await text(detail), /Requested of Task tools · Completed/);
    assert.doesNotMatch(await text(history), /Kept|more, until/);
    assert.deepEqual(pageErrors, []);
  });
});
