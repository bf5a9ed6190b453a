import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page, Route } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { openToolForm } from './renderer-build.js';
import { openEverythingDesk } from './everything-desk.js';
import { recordSaid, said as saidOn, saidTimes } from './live-region.js';

/**
 * The next `resources.read` the page asks browser mode for is answered by the real server, its
 * text made `length` characters long (padded with "y"), as a server answering megabytes would.
 */
async function lengthenNextRead(page: Page, length: number): Promise<void> {
  let done = false;
  const handler = async (route: Route) => {
    const body = route.request().postDataJSON() as { method?: string };
    if (done || body.method !== 'resources.read') return route.fallback();
    done = true;
    const response = await route.fetch();
    const reply = (await response.json()) as { ok: boolean; result?: { contents: Array<{ text?: string }> } };
    const first = reply.result?.contents[0];
    assert.equal(typeof first?.text, 'string', 'the server answers a text');
    first!.text = first!.text!.padEnd(length, 'y');
    await route.fulfill({ response, json: reply });
  };
  await page.route('**/api/call', handler);
}

/** The bytes of the blob `host` reads now at `uri` of server-everything, decoded. */
async function blobBytes(host: Host, uri: string): Promise<number> {
  const { contents } = (await host.call('resources.read', { serverId: 'everything', uri })) as {
    contents: Array<{ blob?: string }>;
  };
  assert.equal(typeof contents[0]?.blob, 'string', 'server-everything answers a blob');
  return Buffer.from(contents[0]!.blob!, 'base64').length;
}

/** The resource link named `name` in `place`: its line, its Read button, what it read. */
function resourceLink(place: Locator, name: string): Locator {
  return place.locator('.resource-link').filter({ has: place.page().getByRole('button', { name: `Read ${name}` }) });
}

describe('resource links in a tool’s result (server-everything’s get-resource-links) read from their server', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let form: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 1100, height: 1200 } }));
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    form = await openToolForm(page.getByRole('region', { name: 'Tools' }), 'get-resource-links');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText('Here are 3 resource links to resources available in this server:').waitFor();
  });

  after(async () => {
    await close?.();
  });

  it('reads a text resource on the Tools screen and shows its text under the link', async () => {
    const link = resourceLink(form, 'Text Resource 2');
    // The link as before: its name (no link out for demo:), its uri.
    assert.match(
      (await link.textContent()) ?? '',
      /^Resource link: Text Resource 2 demo:\/\/resource\/dynamic\/text\/2 Read/
    );
    await link.getByRole('button', { name: 'Read Text Resource 2', exact: true }).click();
    const text = link.locator('pre.text-block');
    await text.waitFor();
    assert.match((await text.textContent()) ?? '', /^Resource 2: This is a plaintext resource created at \S/);
    assert.deepEqual(pageErrors, []);
  });

  it('shows the first 100,000 characters of a long text, Show all the rest; and says what each read brought', async () => {
    await recordSaid(page);
    const link = resourceLink(form, 'Text Resource 2');
    const text = link.locator('pre.text-block');
    await lengthenNextRead(page, 162_345);
    await link.getByRole('button', { name: 'Read Text Resource 2', exact: true }).click();
    await saidTimes(page, /^Read Text Resource 2: text, 162,345 characters\.$/);
    const more = link.getByText('62,345 more characters not shown.');
    await more.waitFor();
    assert.equal(((await text.textContent()) ?? '').length, 100_000);
    const showAll = link.getByRole('button', { name: 'Show all of Text Resource 2', exact: true });
    await showAll.click();
    await more.waitFor({ state: 'detached' });
    assert.equal(((await text.textContent()) ?? '').length, 162_345);
    assert.equal(await showAll.count(), 0);
    // The focus goes to the box that now holds all of it, not to the page.
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Text of Text Resource 2');

    // Read again (the server's own short text now): shown whole, nothing to show all of.
    await link.getByRole('button', { name: 'Read Text Resource 2', exact: true }).click();
    await saidTimes(page, /^Read Text Resource 2: text, \d{2,3} characters\.$/);
    const again = (await text.textContent()) ?? '';
    assert.match(again, /^Resource 2: This is a plaintext resource created at \S/);
    assert.ok((await saidOn(page)).includes(`Read Text Resource 2: text, ${again.length} characters.`));
    assert.equal(await showAll.count(), 0);
    assert.equal(await link.getByText(/more characters? not shown/).count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('reads a blob resource and shows its type and size, not its base64', async () => {
    const uri = 'demo://resource/dynamic/blob/1';
    const link = resourceLink(form, 'Blob Resource 1');
    const before = await blobBytes(host, uri);
    await link.getByRole('button', { name: 'Read Blob Resource 1', exact: true }).click();
    const said = link.getByText(/^Binary contents: /);
    await said.waitFor();
    const after = await blobBytes(host, uri);
    // Its text holds the time it was made: the read between the two is as long as one of them.
    const shown = /^Binary contents: text\/plain, (\d+) bytes$/.exec((await said.textContent()) ?? '');
    assert.ok(shown, `said as type and size: ${await said.textContent()}`);
    assert.ok([before, after].includes(Number(shown[1])), `${shown[1]} bytes, as the blob decodes (${before})`);
    await saidTimes(page, new RegExp(`^Read Blob Resource 1: binary contents, text/plain, ${shown[1]} bytes\\.$`));
    // "Resource 1: " in base64, the start of the blob.
    assert.doesNotMatch((await link.textContent()) ?? '', /UmVzb3VyY2UgMTog/);
    assert.equal(await link.locator('pre').count(), 0, 'no dump of the blob');
    // The other links are not read.
    assert.equal(await resourceLink(form, 'Blob Resource 3').locator('.resource-contents').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('reads a resource link from the call’s History entry too', async () => {
    await form.locator('xpath=ancestor::li[1]').getByRole('link', { name: 'see it in History' }).click();
    const detail = page.getByRole('region', { name: 'History' }).locator('.history-detail');
    const link = resourceLink(detail, 'Text Resource 2');
    await link.getByRole('button', { name: 'Read Text Resource 2', exact: true }).click();
    await link
      .locator('pre.text-block')
      .getByText(/^Resource 2: This is a plaintext resource created at /)
      .waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('says a read that failed as the Desk’s action error, by the link', async () => {
    await host.call('servers.disconnect', { serverId: 'everything' });
    const detail = page.getByRole('region', { name: 'History' }).locator('.history-detail');
    const link = resourceLink(detail, 'Blob Resource 3');
    await link.getByRole('button', { name: 'Read Blob Resource 3', exact: true }).click();
    const alert = link.getByRole('alert');
    await alert.getByText('Could not read Blob Resource 3.').waitFor();
    assert.match((await alert.locator('.action-error-next').textContent()) ?? '', /^Try again\./);
    assert.equal(await link.locator('.resource-contents').count(), 0, 'nothing read is shown');
    assert.deepEqual(pageErrors, []);
  });
});
