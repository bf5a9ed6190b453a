import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { NOTIFICATION_STAND_IN, notificationsShown, shownNotifications } from './notification-stand-in.js';

describe('the Desk’s notifications in browser mode, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture | undefined;
  const closers: Array<() => Promise<unknown>> = [];

  before(async () => {
    built = await buildRenderer();
  });

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await fixture?.dispose();
    built?.remove();
  });

  /** The Desk on `host` with the notification stand-in, notifications turned on by the person. */
  async function notifyingDesk(host: InMemoryHostFixture['host'], pageErrors: string[]): Promise<Page> {
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      beforeLoad: async (p) => {
        await p.addInitScript(NOTIFICATION_STAND_IN);
      }
    });
    closers.push(
      () => browser.close(),
      () => server.close()
    );
    await page.getByRole('button', { name: 'Notify me when something arrives' }).click();
    await page.getByText('Notifications are on.').waitFor();
    return page;
  }

  it('shows a question’s Markdown as plain words, raw HTML dropped', async () => {
    const peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer });
    const pageErrors: string[] = [];
    const page = await notifyingDesk(fixture.host, pageErrors);
    // The page is not focused (the stand-in starts so), so an arrival is notified.
    const added = nextEvent(fixture.host, 'inbox.added');
    await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: '## Booking\n\nYour **name** for the [booking](https://example.com/b)? <b>Now</b> &amp; `soon`',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await added;
    await notificationsShown(page, 1);
    assert.deepEqual(await shownNotifications(page), [
      { title: 'Taskdesk: a question from Server desk', body: 'Booking Your name for the booking? Now & soon' }
    ]);
    assert.deepEqual(pageErrors, []);
  });

  it('tells of a tool call’s task that ended while the page was not in front, and of none the person cancelled', async () => {
    const { peer } = createTaskToolPeer({ clock: systemClock, pollInterval: 50 });
    const tasks = await startHostWith({ work: peer });
    closers.push(() => tasks.dispose());
    const pageErrors: string[] = [];
    const page = await notifyingDesk(tasks.host, pageErrors);
    // Cancelled by the person: no notification.
    const long = await tasks.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.equal(long.type, 'task');
    const cancelled = nextEvent(tasks.host, 'outbound.ended');
    if (long.type === 'task') await tasks.host.call('outbound.cancel', { outboundId: long.task.outboundId });
    await cancelled;
    // Ended by itself (the page not focused, as the stand-in starts): notified, with its result.
    const ended = nextEvent(tasks.host, 'outbound.ended');
    await tasks.host.call('tools.call', { serverId: 'work', name: 'report', arguments: { durationMs: 20 } });
    await ended;
    await notificationsShown(page, 1);
    assert.deepEqual(await shownNotifications(page), [
      {
        title: 'Taskdesk: report on Server work finished',
        body: 'Weekly report Sales rose by 5%; see the details. raw'
      }
    ]);
    assert.deepEqual(pageErrors, []);
  });
});
