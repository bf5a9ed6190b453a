import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { peerServer } from '../support/host-fixture.js';
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

  it('with no server and no provider, says both and links to where to add them', async () => {
    const desk = await startDesk({});
    desks.push(desk);
    const { page } = desk;
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await inbox.getByText('Nothing is waiting for you.').waitFor();
    const guide = inbox.locator('.inbox-guide');
    await guide.waitFor();
    assert.equal(
      await guide.locator('p').textContent(),
      'Questions and model requests your servers send while they work come here, for you to answer.'
    );
    assert.deepEqual(await guide.locator('li').allTextContents(), [
      'No server yet: add one or import yours (from another app’s settings).',
      NO_PROVIDER
    ]);
    await guide.getByRole('link', { name: 'add one or import yours', exact: true }).click();
    await page.getByRole('heading', { name: 'Servers', level: 2 }).waitFor();
    assert.match(page.url(), /#servers$/);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('with a provider and some servers not connected, says which, and that they cannot ask anything', async () => {
    const desk = await startDesk({ a: peerServer('guide-a'), b: peerServer('guide-b'), c: peerServer('guide-c') });
    desks.push(desk);
    const { page, fixture } = desk;
    await fixture.host.call('providers.save', { id: 'p', name: 'P', baseURL: 'http://127.0.0.1:9/v1', models: [] });
    const inbox = page.getByRole('region', { name: 'Inbox' });
    const guide = inbox.locator('.inbox-guide');
    // All connected, a provider set up: only "Nothing is waiting for you."
    await inbox.getByText('Nothing is waiting for you.').waitFor();
    await guide.waitFor({ state: 'detached' });
    await fixture.host.call('servers.disconnect', { serverId: 'b' });
    await fixture.host.call('servers.disconnect', { serverId: 'c' });
    await guide.locator('li').filter({ hasText: 'Not connected' }).waitFor();
    assert.deepEqual(await guide.locator('li').allTextContents(), [
      '1 of your 3 servers connected: Server a; call a tool to try them.',
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
      'Connected: Server a; call a tool to try them.',
      NO_PROVIDER
    ]);
    await fixture.host.call('servers.disconnect', { serverId: 'a' });
    await guide
      .locator('li')
      .filter({ hasText: 'None of your 1 server is connected: check its connection.' })
      .waitFor();

    await fixture.host.call('providers.save', {
      id: 'p',
      name: 'P',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'm' }]
    });
    await guide.locator('li').filter({ hasText: NO_PROVIDER }).waitFor({ state: 'detached' });
    await fixture.host.call('servers.connect', { serverId: 'a' });
    await guide.waitFor({ state: 'detached' });
    await inbox.getByText('Nothing is waiting for you.').waitFor();
    assert.deepEqual(desk.pageErrors, []);
  });
});
