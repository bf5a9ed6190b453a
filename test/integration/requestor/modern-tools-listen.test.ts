import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host, type HostConfig } from '../../../app/host/host.js';
import type { ServerConfigInput } from '../../../app/mcp/server-config.js';
import { serveChangingListsHttp } from '../../support/changing-lists-server.js';
import type { FetchHttpServer, ReceivedHttpRequest } from '../../support/fetch-http-server.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';

/**
 * A 2026-07-28 server that declares `listChanged` tells of a changed tool, prompt or resource list
 * only on a `subscriptions/listen` stream: Taskdesk opens one when it connects, asking for the
 * lists the server declared, and a change said on it makes the host read the tools again and tell
 * the Desk (`tools.changed`; `sources.changed` for prompts and resources), as a 2025-11-25
 * server's notification does. Against a real server on the v2 server package, over stdio and over
 * Streamable HTTP.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverScript = fileURLToPath(new URL('../../support/changing-lists-server.ts', import.meta.url));

const stdioServer: ServerConfigInput = {
  id: 'changing',
  name: 'Changing tools',
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', serverScript], cwd: root },
  autoConnect: false,
  protocol: '2026-07-28'
};

const httpServer = (id: string, url: string): ServerConfigInput => ({
  id,
  name: 'Changing tools over HTTP',
  transport: { type: 'http', url },
  autoConnect: false,
  protocol: '2026-07-28'
});

/** A host over a data directory of its own, with `server` added and connected as a 2026-07-28 server. */
async function connectedHost(
  server: ServerConfigInput,
  options: Partial<HostConfig> = {}
): Promise<{ host: Host; close: () => Promise<void> }> {
  const data = tempDir();
  const host = createHost({ dataDir: data.dir, autoConnect: false, ...options });
  await host.call('servers.add', server);
  const view = await host.connect(server.id);
  assert.equal(view.state.status, 'ready', view.state.reason);
  assert.equal(view.state.era, 'modern');
  return {
    host,
    close: async () => {
      await host.close();
      data.remove();
    }
  };
}

const toolNames = async (host: Host, serverId: string) =>
  (await host.call('tools.list', { serverId })).map((tool) => tool.name).sort();

/** Has the server add a tool `name`; settles once the host has told the Desk its tools changed. */
async function addToolTold(host: Host, serverId: string, name: string): Promise<void> {
  const changed = nextEvent(host, 'tools.changed', (event) => event.serverId === serverId);
  const outcome = await host.call('tools.call', { serverId, name: 'add-tool', arguments: { name }, asTask: false });
  assert.equal(outcome.type, 'result');
  await changed;
}

const isListen = (request: ReceivedHttpRequest) => request.body?.method === 'subscriptions/listen';

/** The server's own tools, which add a tool, a prompt or a resource. */
const ADDERS = ['add-prompt', 'add-resource', 'add-tool'];

/**
 * Has the server add a prompt and a resource named `name`; settles once the host has told the
 * Desk of each (`sources.changed`, at once and then at the end of its half second), with what
 * `assistant.sources` lists then.
 */
async function addSourcesTold(host: Host, serverId: string, name: string): Promise<string[]> {
  const sources = async () => {
    const found = await host.call('assistant.sources', { serverId });
    return [...found.prompts.map((p) => p.name), ...found.resources.map((r) => r.uri)];
  };
  assert.deepEqual(await sources(), []);
  for (const kind of ['prompt', 'resource']) {
    const changed = nextEvent(host, 'sources.changed', (event) => event.serverId === serverId);
    const outcome = await host.call('tools.call', {
      serverId,
      name: `add-${kind}`,
      arguments: { name },
      asTask: false
    });
    assert.equal(outcome.type, 'result');
    await changed;
  }
  return sources();
}

describe('a 2026-07-28 server tells of its changed lists on subscriptions/listen', () => {
  let connected: Awaited<ReturnType<typeof connectedHost>>;
  before(async () => {
    connected = await connectedHost(stdioServer);
  });
  after(() => connected.close());

  it('a tool the server adds is listed after its notification, with tools.changed told', async () => {
    assert.deepEqual(await toolNames(connected.host, 'changing'), ADDERS);
    await addToolTold(connected.host, 'changing', 'fresh');
    assert.deepEqual(await toolNames(connected.host, 'changing'), [...ADDERS, 'fresh']);
  });

  it('a prompt and a resource the server adds are told (sources.changed) and listed', async () => {
    assert.deepEqual(await addSourcesTold(connected.host, 'changing', 'kept'), ['kept', 'note://kept']);
  });
});

describe('a 2026-07-28 server over Streamable HTTP tells of its changed lists on subscriptions/listen', () => {
  let served: FetchHttpServer;
  let connected: Awaited<ReturnType<typeof connectedHost>>;
  before(async () => {
    served = await serveChangingListsHttp();
    connected = await connectedHost(httpServer('changing-http', served.url));
  });
  after(async () => {
    await connected.close();
    await served.close();
  });

  it('opens the stream as a POST whose answer stays open, and a tool added by another request is listed after its notification', async () => {
    assert.deepEqual(await toolNames(connected.host, 'changing-http'), ADDERS);
    // Opened as the server became ready: a POST, its answer an SSE stream left open.
    const listen = await served.request(isListen);
    await listen.answered;
    assert.equal(listen.httpMethod, 'POST');
    // What the server declared it tells of, and nothing else.
    assert.deepEqual(listen.body?.params?.notifications, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true
    });
    assert.equal(listen.status, 200);
    await addToolTold(connected.host, 'changing-http', 'fresh');
    assert.deepEqual(await toolNames(connected.host, 'changing-http'), [...ADDERS, 'fresh']);
    // Heard on the stream opened at the start, still open; no second one was needed.
    assert.equal(listen.open, true);
    assert.equal(served.received.filter(isListen).length, 1);
  });

  it('a prompt and a resource added by other requests are told on the same stream (sources.changed) and listed', async () => {
    assert.deepEqual(await addSourcesTold(connected.host, 'changing-http', 'kept'), ['kept', 'note://kept']);
    assert.equal(served.received.filter(isListen).length, 1);
  });

  it('closes the stream when the server is disconnected', async () => {
    const listen = await served.request(isListen);
    assert.equal(listen.open, true);
    await connected.host.call('servers.disconnect', { serverId: 'changing-http' });
    await listen.closed;
    assert.equal(listen.open, false);
  });
});

describe('the subscriptions/listen stream to a Streamable HTTP server, renewed', () => {
  let served: FetchHttpServer;
  let connected: Awaited<ReturnType<typeof connectedHost>>;
  before(async () => {
    served = await serveChangingListsHttp();
    // Renewed every second here, every four minutes by default.
    connected = await connectedHost(httpServer('renewed', served.url), { httpListenRenewalMs: 1000 });
  });
  after(async () => {
    await connected.close();
    await served.close();
  });

  it('closes each stream as the next opens, and a change is heard on the new one', async () => {
    const { host } = connected;
    const first = await served.request(isListen);
    const second = await served.request((request) => isListen(request) && request !== first);
    // The first stream's HTTP answer is closed, not left open beside the new one.
    await first.closed;
    await second.answered;
    assert.equal(second.status, 200);
    assert.equal(second.open, true);
    assert.equal(served.received.filter((request) => isListen(request) && request.open).length, 1);
    // A change is told on the stream open when the server makes it. One made while a stream
    // is being renewed (the old one closed, the new one not yet open) is told to nobody (the new
    // stream's acknowledgement makes the list stale instead): should a renewal come before the
    // change is heard, another change is made.
    for (let attempt = 1; ; attempt++) {
      const seen = new Set(served.received.filter(isListen));
      const changed = nextEvent(host, 'tools.changed', (event) => event.serverId === 'renewed');
      const name = `later-${attempt}`;
      await host.call('tools.call', { serverId: 'renewed', name: 'add-tool', arguments: { name }, asTask: false });
      const heard = await Promise.race([
        changed.then(() => true),
        served.request((request) => isListen(request) && !seen.has(request)).then(() => false)
      ]);
      // The server's list has no ttlMs, so the host reads it at each use: the tool is listed.
      if (heard) {
        assert.ok((await toolNames(host, 'renewed')).includes(name));
        break;
      }
      assert.ok(attempt < 5, 'a change heard on one of five streams');
    }
  });
});
