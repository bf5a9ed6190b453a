import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * The production bundle under the page's Content-Security-Policy (`script-src 'self'`, no
 * inline code, no eval): every screen is shown and used, and the page reports no violation.
 */
describe('the built Desk under its Content-Security-Policy', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    peer = peerServer('csp-peer');
    fixture = await startHostWith({ csp: peer });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, { failedResponses: true }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  it('reports no securitypolicyviolation while every screen is shown and used', async () => {
    // Listening from the page itself, before its scripts run, on a fresh load.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`)
      );
    });
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    const csp = (await page.request.get(server.url)).headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);

    await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which colour?',
          requestedSchema: { type: 'object', properties: { colour: { type: 'string', title: 'Colour' } } },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const card = page.getByRole('article', { name: 'Which colour?' });
    await card.getByLabel('Colour').fill('teal');
    for (const name of ['Tasks', 'Tools', 'Servers', 'LLM providers', 'Audit log']) {
      await page.getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 2, name }).waitFor();
    }
    // The modal dialog, the styles React sets on the virtualized Tasks table, and a submit.
    // A server of the person's own (one given by the configuration has no Remove).
    await fixture.host.call('servers.add', {
      id: 'saved',
      name: 'Saved',
      transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      autoConnect: false
    });
    await page.getByRole('link', { name: 'Servers', exact: true }).click();
    await page.getByRole('button', { name: 'Remove Saved' }).click();
    await page.getByRole('dialog', { name: 'Remove Saved?' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: /Inbox/ }).click();
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.locator('tr[data-task-id] [data-status="completed"]').waitFor();

    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    assert.deepEqual(violations, []);
    assert.deepEqual(pageErrors, []);
  });

  it('loads only files of its own origin: one entry script and one stylesheet, no inline code', async () => {
    const html = await (await page.request.get(server.url)).text();
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![0], /src="\.\/main\.js"/);
    assert.equal(scripts[0]![1]!.trim(), '', 'no inline script');
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
    const bundle = await (await page.request.get(new URL('/main.js', server.origin).href)).text();
    assert.doesNotMatch(bundle, /\beval\(|new Function\(/, 'the bundle never evaluates strings');
  });
});
