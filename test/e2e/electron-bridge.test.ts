import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import type { Browser, Page } from 'playwright-core';
import { launchTestBrowser } from '../support/test-browser.js';
import ts from 'typescript';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import { HostEvents, type HostEvent } from '../../app/contract/host-api.js';
import { answerCall } from '../../main/host-call.js';
import { CALL_CHANNEL, EVENT_CHANNEL, PICK_FOLDER_CHANNEL } from '../../main/ipc-channels.js';
import { tempDir } from '../support/host-fixture.js';
import { isTrustedSender } from '../../main/trusted-sender.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, root } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';

/**
 * The Electron shell cannot run here (no Electron binary), so this covers what can run without
 * it: the main process's call decisions, and the real preload and the renderer's Electron path
 * in Chromium, with Electron's IPC replaced by a Playwright binding to the same `answerCall`.
 * Not covered: contextIsolation's separate world, the sandbox, and Electron's IPC itself.
 */

const PAGE_URL = 'file:///opt/taskdesk/build/renderer/index.html';

/** Stand-ins with the fields the sender check reads. */
function fakeWindow(frameUrl = PAGE_URL) {
  const mainFrame = { processId: 4, routingId: 1, parent: null, url: frameUrl };
  const webContents = { mainFrame };
  const window = { webContents, isDestroyed: () => false } as unknown as BrowserWindow;
  return { window, webContents, mainFrame };
}

type SenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;
const event = (sender: unknown, senderFrame: unknown) => ({ sender, senderFrame }) as unknown as SenderEvent;

describe('main process: who may call the host', () => {
  it('trusts only the main frame of the main window showing our file', () => {
    const { window, webContents, mainFrame } = fakeWindow();
    assert.equal(isTrustedSender(event(webContents, mainFrame), window, PAGE_URL), true);
    assert.equal(
      isTrustedSender(event(webContents, { ...mainFrame }), window, PAGE_URL),
      true,
      'a fresh wrapper of the same frame'
    );
    assert.equal(isTrustedSender(event({ mainFrame }, mainFrame), window, PAGE_URL), false, 'another webContents');
    assert.equal(isTrustedSender(event(webContents, null), window, PAGE_URL), false, 'a destroyed frame');
    assert.equal(
      isTrustedSender(event(webContents, { ...mainFrame, routingId: 2, parent: mainFrame }), window, PAGE_URL),
      false,
      'a sub-frame'
    );
    assert.equal(
      isTrustedSender(event(webContents, { ...mainFrame, routingId: 2 }), window, PAGE_URL),
      false,
      'another frame'
    );
    assert.equal(isTrustedSender(event(webContents, mainFrame), undefined, PAGE_URL), false, 'no window');
    assert.equal(
      isTrustedSender(
        event(webContents, mainFrame),
        { ...window, isDestroyed: () => true } as unknown as BrowserWindow,
        PAGE_URL
      ),
      false,
      'a closed window'
    );
    for (const url of ['https://evil.example/index.html', 'file:///tmp/other.html', 'data:text/html,hi', 'not a url']) {
      const other = fakeWindow(url);
      assert.equal(isTrustedSender(event(other.webContents, other.mainFrame), other.window, PAGE_URL), false, url);
    }
    const routed = fakeWindow(`${PAGE_URL}#servers`);
    assert.equal(
      isTrustedSender(event(routed.webContents, routed.mainFrame), routed.window, PAGE_URL),
      true,
      'the page with a screen fragment'
    );
  });

  it('answers untrusted senders and unknown methods with error data, and passes the rest to the host', async () => {
    const seen: unknown[] = [];
    const host = {
      dispatch: async (method: string, params: unknown) => (
        seen.push([method, params]),
        { ok: true as const, result: [] }
      )
    };
    assert.deepEqual(await answerCall(host as never, false, 'servers.list', {}), {
      ok: false,
      error: { code: -32600, message: 'Calls are accepted from the Taskdesk window only' }
    });
    for (const method of ['nope', 'constructor', '__proto__', 42, undefined]) {
      const reply = await answerCall(host as never, true, method, {});
      assert.deepEqual([reply.ok, !reply.ok && reply.error.code], [false, -32601], String(method));
    }
    assert.deepEqual(seen, []);
    assert.deepEqual(await answerCall(host as never, true, 'servers.list', { raw: true }), { ok: true, result: [] });
    assert.deepEqual(
      seen,
      [['servers.list', { raw: true }]],
      'params reach dispatch unparsed; the host validates them'
    );
  });
});

describe('the renderer over the real preload, in Chromium', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const unsubscribes: Array<() => void> = [];
  /** The folder the stand-in for the system's folder dialog picks. */
  const picked = tempDir('taskdesk-picked-');

  before(async () => {
    built = await buildRenderer();
    peer = peerServer('bridge-peer');
    fixture = await startHostWith({ b: peer });
    // Only the static files are used; the page never learns the token, so it cannot use HTTP.
    server = await startBrowserServer({ host: fixture.host, rendererDir: built.dir });
    browser = await launchTestBrowser();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));

    const preload = ts.transpileModule(fs.readFileSync(path.join(root, 'main/preload/preload.cts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 }
    }).outputText;
    await page.exposeBinding('__taskdeskInvoke', async (source, channel: string, method: unknown, params: unknown) => {
      // The main process answers this channel with dialog.showOpenDialog; here the person "picks" a temp folder.
      if (channel === PICK_FOLDER_CHANNEL) return picked.dir;
      assert.equal(channel, CALL_CHANNEL);
      return answerCall(fixture.host, source.frame === page.mainFrame(), method, params);
    });
    // Electron's sandboxed loader: the script wrapped in a function given `require` and friends.
    // Built as text (not `new Function`): the page's CSP rightly forbids eval.
    const fakeElectron = `{
      contextBridge: { exposeInMainWorld: (key, api) => Object.defineProperty(window, key, { value: api }) },
      ipcRenderer: {
        invoke: (channel, ...args) => window.__taskdeskInvoke(channel, ...args),
        on: (channel, listener) => { if (channel === ${JSON.stringify(EVENT_CHANNEL)}) listeners.push(listener); }
      }
    }`;
    await page.addInitScript({
      content: `(() => {
        const listeners = [];
        const electron = ${fakeElectron};
        window.__taskdeskEmit = (message) => { for (const listener of listeners) listener({}, message); };
        const preloadRequire = (name) => { if (name !== 'electron') throw new Error('module not found: ' + name); return electron; };
        const exports = {};
        (function (require, process, exports, module) {\n${preload}\n})(preloadRequire, {}, exports, { exports });
      })();`
    });
    for (const name of Object.keys(HostEvents) as HostEvent[]) {
      unsubscribes.push(
        fixture.host.on(name, (payload) => {
          void page
            .evaluate(
              (message) => (window as unknown as { __taskdeskEmit: (m: unknown) => void }).__taskdeskEmit(message),
              { event: name, payload }
            )
            .catch(() => undefined);
        })
      );
    }
    await page.goto(`${server.origin}/`);
    await page.locator('#app[data-ready="true"]').waitFor();
  });

  after(async () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
    picked.remove();
  });

  it('exposes one frozen object with call, on and the folder picker only', async () => {
    const shape = await page.evaluate(() => {
      const api = (window as unknown as { taskdesk: object }).taskdesk;
      return {
        keys: Object.keys(api).sort(),
        frozen: Object.isFrozen(api),
        ipc: 'ipcRenderer' in window || 'require' in window
      };
    });
    assert.deepEqual(shape, { keys: ['call', 'on', 'pickFolder'], frozen: true, ipc: false });
  });

  it('adds a folder a server sees as a root with the system dialog (through the preload)', async () => {
    await page.getByRole('link', { name: 'Servers', exact: true }).click();
    const card = page.locator('li[data-server-id="b"]');
    await openServerSettings(card);
    await card.getByRole('button', { name: 'Add folder…' }).click();
    await card.locator('.folder-list code', { hasText: picked.dir }).waitFor();
    assert.deepEqual((await fixture.host.call('roots.get', { serverId: 'b' })).folders, [picked.dir]);
    await card.getByRole('button', { name: `Remove the folder ${picked.dir} from ${'Server b'}` }).click();
    await card.getByText('No folders.').waitFor();
    assert.deepEqual((await fixture.host.call('roots.get', { serverId: 'b' })).folders, []);
    await page.getByRole('link', { name: /Inbox/ }).click();
  });

  it('answers a form through the bridge: per-field errors survive it, the task completes', async () => {
    const { task } = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'How many seats?',
          requestedSchema: {
            type: 'object',
            properties: { seats: { type: 'integer', minimum: 1, title: 'Seats' } },
            required: ['seats']
          },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const card = page.getByRole('article', { name: 'How many seats?' });
    await card.waitFor();
    const result = peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ElicitResultSchema);
    const seats = card.getByLabel('Seats');
    await seats.fill('0');
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.getByText('Must be at least 1').waitFor();
    assert.equal(await seats.getAttribute('aria-invalid'), 'true');
    await seats.fill('3');
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.waitFor({ state: 'detached' });
    assert.deepEqual((await result).content, { seats: 3 });
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.locator('li[data-server-id="b"] [data-status="ready"]').waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('rejects a failed call with the error code and data intact', async () => {
    const { task } = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Colour?',
          requestedSchema: {
            type: 'object',
            properties: { colour: { type: 'string', enum: ['red', 'blue'] } },
            required: ['colour']
          },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    await page.getByRole('link', { name: /Inbox/ }).click();
    await page.getByRole('article', { name: 'Colour?' }).waitFor();
    const error = await page.evaluate(async (id) => {
      const api = (window as unknown as { taskdesk: { call(method: string, params: unknown): Promise<unknown> } })
        .taskdesk;
      try {
        await api.call('inbox.answer', { id, answer: { action: 'accept', content: { colour: 'green' } } });
        return undefined;
      } catch (thrown) {
        return thrown as { code: number; message: string; data?: { fields?: Record<string, string> } };
      }
    }, task.taskId);
    assert.equal(error?.code, -32602);
    assert.deepEqual(error?.data?.fields, { colour: 'Must be one of: red, blue' });
    await page.getByRole('article', { name: 'Colour?' }).getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('article', { name: 'Colour?' }).waitFor({ state: 'detached' });
  });
});
