import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ElicitResultSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { addDemoServerIfNone, demoServerConfig } from '../../app/cli/demo-server.js';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, peerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

const NO_PROVIDER =
  'No LLM provider yet: add a provider to chat in the Assistant and to run your servers’ model requests (until then, you write their replies here).';

/**
 * A first run opens on an empty Inbox: it says what comes there and what the Desk still needs
 * (a server connected, an LLM provider), each with the screen to go to, and says nothing once
 * it has both.
 */
describe('the empty Inbox’s guide', () => {
  const desks: DeskFixture[] = [];

  after(async () => {
    for (const desk of desks) await desk.close();
  });

  it('on a first run (no server), says under the heading what Taskdesk is for and the first steps, and nothing of it once a server exists', async () => {
    const desk = await startDesk({});
    desks.push(desk);
    const { page, fixture } = desk;
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await inbox.getByText('Nothing is waiting for you.').waitFor();
    const welcome = inbox.locator('.desk-welcome');
    await welcome.waitFor();
    assert.equal(
      await welcome.locator('p').textContent(),
      'Taskdesk connects you to MCP servers, programs that offer tools (files, search, your own services): you call their tools, chat with a model that uses them, and answer here what they ask of you.'
    );
    assert.deepEqual(await welcome.locator('li').allTextContents(), [
      'Add a server, or import yours from another app’s settings.',
      'Add a model provider to chat in the Assistant.'
    ]);
    // Said first, right under the heading, and once: the guide under the empty Inbox does not say it again.
    assert.equal(
      await inbox.evaluate((section) => section.querySelector('h2 + *')?.className),
      'desk-welcome',
      'the welcome follows the heading'
    );
    assert.equal(await inbox.locator('.inbox-guide').count(), 0);
    await welcome.getByRole('link', { name: 'Add a model provider', exact: true }).click();
    await page.getByRole('heading', { name: 'LLM providers', level: 2 }).waitFor();
    assert.match(page.url(), /#providers$/);
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    await welcome.getByRole('link', { name: 'Add a server', exact: true }).click();
    await page.getByRole('heading', { name: 'Servers', level: 2 }).waitFor();
    assert.match(page.url(), /#servers\/add$/);
    // It leads to the form itself: its heading has the focus, in sight.
    await page.waitForFunction(() => document.activeElement?.id === 'heading-add-server');
    const form = await page.locator('#heading-add-server').boundingBox();
    assert.ok(
      form && form.y >= 0 && form.y < (page.viewportSize()?.height ?? 0),
      `the form's heading in sight (${form?.y})`
    );

    // A server added (even one not connected): the Desk is no longer new, and says no more of it.
    await fixture.host.call('servers.add', {
      id: 'first',
      name: 'First',
      transport: { type: 'stdio', command: 'first-server-not-installed' }
    });
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    await inbox.locator('.inbox-guide').waitFor();
    assert.equal(await welcome.count(), 0);
    assert.equal(await inbox.getByRole('link', { name: 'Add a server', exact: true }).count(), 0);
    assert.deepEqual(await inbox.locator('.inbox-guide li').last().textContent(), NO_PROVIDER);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('with only the demo server Taskdesk added, still says what Taskdesk is for, until the person adds a server', async () => {
    // Real transports (no in-memory peers): the demo is the bundled server-everything over stdio.
    const desk = await startDesk({}, { host: { transportFactory: undefined } });
    desks.push(desk);
    const { page, fixture } = desk;
    // As browser mode and a first start do: Taskdesk adds the bundled demo server itself.
    assert.equal(await addDemoServerIfNone(fixture.host, demoServerConfig()), true);
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const guide = inbox.locator('.inbox-guide');
    await guide.locator('li', { hasText: 'Connected: Everything (demo); call a tool to try it.' }).waitFor();
    const welcome = inbox.locator('.desk-welcome');
    assert.match((await welcome.locator('p').textContent()) ?? '', /^Taskdesk connects you to MCP servers, /);
    // The guide under the empty Inbox says the demo is connected and no provider is set up: said once.
    assert.deepEqual(await welcome.locator('li').allTextContents(), [
      'Add a server of your own, or import yours from another app’s settings.'
    ]);
    assert.deepEqual(await guide.locator('li').allTextContents(), [
      'Connected: Everything (demo); call a tool to try it.',
      NO_PROVIDER
    ]);
    await welcome.getByRole('link', { name: 'Add a server', exact: true }).waitFor();

    // Its second way leads to the Import section, below the whole Add a server form: its heading
    // has the focus, in sight under the bar, by a click and again by Enter from the keyboard.
    const importLink = welcome.getByRole('link', { name: 'import yours from another app’s settings', exact: true });
    const importHeading = page.getByRole('heading', { name: 'Import from other apps', level: 3 });
    const importInSight = async (how: string) => {
      await page.waitForURL(/#servers\/import$/);
      await page.waitForFunction(() => document.activeElement?.id === 'heading-import');
      const place = await importHeading.evaluate((heading) => ({
        top: heading.getBoundingClientRect().top,
        bottom: heading.getBoundingClientRect().bottom,
        bar: document.querySelector('.top-area')?.getBoundingClientRect().bottom ?? 0,
        height: innerHeight
      }));
      assert.ok(
        place.top >= place.bar && place.bottom <= place.height,
        `${how}: the Import heading in sight under the bar (${JSON.stringify(place)})`
      );
    };
    await importLink.click();
    await importInSight('clicked');
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    await importLink.focus();
    await page.keyboard.press('Enter');
    await importInSight('Enter');
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();

    // A server of the person's own: the Desk is no longer new.
    await fixture.host.call('servers.add', {
      id: 'first',
      name: 'First',
      transport: { type: 'stdio', command: 'first-server-not-installed' }
    });
    await welcome.waitFor({ state: 'detached' });
    await guide.locator('li', { hasText: 'Everything (demo)' }).waitFor();
    assert.deepEqual(desk.pageErrors, []);
  });

  it('with a provider and some servers not connected, says which, and that they cannot ask anything', async () => {
    const desk = await startDesk({ a: peerServer('guide-a'), b: peerServer('guide-b'), c: peerServer('guide-c') });
    desks.push(desk);
    const { page, fixture } = desk;
    await fixture.host.call('providers.save', {
      id: 'p',
      name: 'P',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'm' }]
    });
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const guide = inbox.locator('.inbox-guide');
    // All connected, a provider set up: only "Nothing is waiting for you."
    await inbox.getByText('Nothing is waiting for you.').waitFor();
    await guide.waitFor({ state: 'detached' });
    await fixture.host.call('servers.disconnect', { serverId: 'b' });
    await fixture.host.call('servers.disconnect', { serverId: 'c' });
    await guide.locator('li').filter({ hasText: 'Not connected' }).waitFor();
    assert.deepEqual(await guide.locator('li').allTextContents(), [
      '1 of your 3 servers connected: Server a; call a tool to try it.',
      'Not connected: Server b, Server c; they cannot ask you anything until they are: check their connections.'
    ]);
    await guide.getByRole('link', { name: 'check their connections', exact: true }).click();
    await page.getByRole('heading', { name: 'Servers', level: 2 }).waitFor();
    assert.match(page.url(), /#servers$/);
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    await fixture.host.call('servers.connect', { serverId: 'b' });
    await guide
      .locator('li')
      .filter({ hasText: 'Not connected: Server c; it cannot ask you anything until it is: check its connection.' })
      .waitFor();
    await fixture.host.call('servers.connect', { serverId: 'c' });
    await guide.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('follows the servers’ connections and the providers, and says nothing once it has both', async () => {
    const desk = await startDesk({ a: peerServer('guide-peer') });
    desks.push(desk);
    const { page, fixture } = desk;
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const guide = inbox.locator('.inbox-guide');
    await guide.waitFor();
    assert.deepEqual(await guide.locator('li').allTextContents(), [
      'Connected: Server a; call a tool to try it.',
      NO_PROVIDER
    ]);
    await fixture.host.call('servers.disconnect', { serverId: 'a' });
    await guide.locator('li').filter({ hasText: 'Server a is not connected: check its connection.' }).waitFor();

    // A provider saved while its model list could not be read runs nothing: said so, in its words.
    await fixture.host.call('providers.save', { id: 'p', name: 'P', baseURL: 'http://127.0.0.1:9/v1', models: [] });
    await guide
      .locator('li')
      .filter({
        hasText:
          'None of your LLM providers lists a model: add a model to one to chat in the Assistant and to run your servers’ model requests (until then, you write their replies here).'
      })
      .waitFor();
    await fixture.host.call('providers.remove', { providerId: 'p' });
    await fixture.host.call('providers.save', {
      id: 'p',
      name: 'P',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'm' }]
    });
    await guide.locator('li').filter({ hasText: 'lists a model' }).waitFor({ state: 'detached' });
    await guide.locator('li').filter({ hasText: NO_PROVIDER }).waitFor({ state: 'detached' });
    await fixture.host.call('servers.connect', { serverId: 'a' });
    await guide.waitFor({ state: 'detached' });
    await inbox.getByText('Nothing is waiting for you.').waitFor();
    assert.deepEqual(desk.pageErrors, []);
  });
});

/**
 * An answer to a question a server asked during one of Taskdesk's tool tasks: the card goes, and
 * the line that says where the answer went leads on to that task on the Tasks screen.
 */
describe('the Inbox’s line after an answer', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let desk: DeskFixture | undefined;

  after(async () => {
    await desk?.close();
    store.close();
  });

  it('links to the task a question was asked for, and says only where the answer went for a question of no task', async () => {
    desk = await startDesk({ work });
    const { page, fixture } = desk;
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const call = await fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    const schema = { type: 'object', properties: { region: { type: 'string', title: 'Region' } } } as const;
    const asked = work.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which region, for the slow call?',
          requestedSchema: schema,
          _meta: { [RELATED_TASK_META_KEY]: { taskId: call.task.taskId } }
        }
      },
      ElicitResultSchema
    );
    const card = inbox.locator('[data-inbox-id]', { hasText: 'Which region, for the slow call?' });
    await card.getByLabel('Region').fill('north');
    await card.getByRole('button', { name: 'Submit' }).click();
    assert.equal((await asked).action, 'accept');
    const line = inbox.locator('.inbox-answered');
    await line.getByText('Answer sent to Server work for “Which region, for the slow call?”.').waitFor();
    const link = line.getByRole('link', { name: 'Go to its task', exact: true });
    assert.equal(await link.getAttribute('href'), `#tasks/${encodeURIComponent(`requested:${call.task.outboundId}`)}`);
    await link.click();
    const detail = page.getByRole('region', { name: 'Tasks' }).locator('.task-detail');
    await detail.getByRole('heading', { name: 'slow', exact: true }).waitFor();

    // A question of no task: where the answer went, and no link.
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    const plain = work.server.request(
      {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Which region, with no task?', requestedSchema: schema }
      },
      ElicitResultSchema
    );
    await nextEvent(fixture.host, 'inbox.added', ({ item }) => item.serverId === 'work');
    const second = inbox.locator('[data-inbox-id]', { hasText: 'Which region, with no task?' });
    await second.getByLabel('Region').fill('south');
    await second.getByRole('button', { name: 'Submit' }).click();
    assert.equal((await plain).action, 'accept');
    // The same server, another question: the line names it, so it reads apart from the first.
    await line.getByText('Answer sent to Server work for “Which region, with no task?”.').waitFor();
    assert.equal(await line.getByText('for the slow call').count(), 0);
    assert.equal(await line.getByRole('link').count(), 0);
    await fixture.host.call('outbound.cancel', { outboundId: call.task.outboundId });
    assert.deepEqual(desk.pageErrors, []);
  });
});
