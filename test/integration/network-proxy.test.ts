import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { proxyDispatcher, proxyFromEnvironment } from '../../app/core/network-proxy.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { createProviderClient } from '../../app/sampling/provider-client.js';
import { classifyProviderError } from '../../app/sampling/provider-failure.js';
import { providerFetchThrough } from '../../app/sampling/provider-fetch.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startForwardProxy } from '../support/forward-proxy.js';
import { tempDir } from '../support/host-fixture.js';
import { serveHttp } from '../support/http-peer.js';
import { buildTaskPeer } from '../support/task-peer-server.js';

// In a describe of its own: npm test runs the integration files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('requests through a proxy, and the proxy settings', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  /** A server on `host` (a loopback address) that answers every request with "direct". */
  async function directServer(host: string) {
    const server = http.createServer((_req, res) => res.end('direct'));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://${host}:${(server.address() as AddressInfo).port}/`;
  }

  /** A port on 127.0.0.1 where nothing listens: one the system gave out, and let go again. */
  async function deadPort() {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  describe('the proxy settings in the environment', () => {
    it('are read as curl reads them: lower case first, none without a proxy named', () => {
      assert.equal(proxyFromEnvironment({}), undefined);
      assert.equal(proxyFromEnvironment({ no_proxy: 'example.com', HTTP_PROXY: ' ' }), undefined);
      assert.deepEqual(proxyFromEnvironment({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2' }), {
        httpsProxy: 'http://lower:2'
      });
      assert.deepEqual(proxyFromEnvironment({ HTTP_PROXY: 'http://p:3128', NO_PROXY: 'intranet.example' }), {
        httpProxy: 'http://p:3128',
        noProxy: 'intranet.example'
      });
    });
  });

  describe('requests through a proxy', () => {
    it('reach an LLM provider through it, and this computer and the hosts no_proxy names directly', async () => {
      const proxy = await startForwardProxy({
        'models.example.test': (res) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ object: 'list', data: [{ id: 'through-the-proxy', object: 'model' }] }));
        }
      });
      cleanups.push(proxy.close);
      const viaProxy = providerFetchThrough(proxyDispatcher({ httpProxy: proxy.url }));
      const answer = await viaProxy('http://models.example.test/v1/models');
      assert.equal(answer.status, 200);
      assert.deepEqual(((await answer.json()) as { data: Array<{ id: string }> }).data[0]?.id, 'through-the-proxy');
      assert.deepEqual(proxy.seen, ['GET http://models.example.test/v1/models']);
      // A Request, which the SDK does not send, takes the same way.
      assert.equal((await viaProxy(new Request('http://models.example.test/v1/models'))).status, 200);
      assert.equal(proxy.seen.length, 2);
      proxy.seen.pop();
      proxy.authorizations.pop();

      // Loopback (a local model server) is never sent to the proxy, which could not reach it.
      const local = await directServer('127.0.0.1');
      assert.equal(await (await viaProxy(local)).text(), 'direct');
      // Another loopback address is an ordinary host: proxied, unless no_proxy names it (or is *).
      const other = await directServer('127.0.0.2');
      assert.equal((await viaProxy(other)).status, 502, 'the proxy has no route to it');
      for (const noProxy of ['127.0.0.2', '*']) {
        const direct = providerFetchThrough(proxyDispatcher({ httpProxy: proxy.url, noProxy }));
        assert.equal(await (await direct(other)).text(), 'direct', noProxy);
      }
      assert.deepEqual(proxy.seen.slice(1), [`GET ${other}`]);
      assert.deepEqual(proxy.authorizations, [undefined, undefined]);

      // A proxy that wants a password: the one in its URL, as Proxy-Authorization.
      const signed = providerFetchThrough(
        proxyDispatcher({ httpProxy: proxy.url.replace('http://', 'http://team:s%40cret@') })
      );
      assert.equal((await signed('http://models.example.test/v1/models')).status, 200);
      assert.equal(proxy.authorizations.at(-1), `Basic ${Buffer.from('team:s@cret').toString('base64')}`);
    });

    it('connect an MCP server over HTTP and test an LLM provider through the proxy the host is given', async () => {
      const endpoint = await serveHttp(buildTaskPeer);
      const llm = await FakeOpenAIServer.start();
      const mcpPort = Number(new URL(endpoint.url).port);
      const llmPort = Number(new URL(llm.baseURL).port);
      const proxy = await startForwardProxy({ 'mcp.example.test': mcpPort, 'llm.example.test': llmPort });
      const data = tempDir();
      const host = createHost({
        dataDir: data.dir,
        keyStore: new InMemoryKeyStore(),
        servers: [
          { id: 'web', name: 'Behind a proxy', transport: { type: 'http', url: 'http://mcp.example.test/mcp' } }
        ],
        autoConnect: false,
        proxy: { httpProxy: proxy.url }
      });
      cleanups.push(
        endpoint.close,
        () => llm.close(),
        proxy.close,
        data.remove,
        () => host.close()
      );

      const view = await host.connect('web');
      assert.equal(view.state.status, 'ready', view.state.reason);
      assert.ok(
        proxy.seen.some((line) => line.startsWith('POST http://mcp.example.test/mcp')),
        proxy.seen.join('\n')
      );

      const baseURL = llm.baseURL.replace(`127.0.0.1:${llmPort}`, 'llm.example.test');
      await host.call('providers.save', { id: 'far', name: 'Far away', baseURL, models: [{ name: 'fake-small' }] });
      const tested = await host.call('providers.test', { providerId: 'far' });
      assert.equal(tested.ok, true, JSON.stringify(tested));
      assert.ok(proxy.seen.some((line) => line.startsWith('GET http://llm.example.test/')));
    });

    it('say that the proxy refused, and why, rather than blame the server or the provider', async () => {
      const proxy = await startForwardProxy({}, { tunnelStatus: 407 });
      const data = tempDir();
      const host = createHost({
        dataDir: data.dir,
        keyStore: new InMemoryKeyStore(),
        servers: [{ id: 'far', name: 'Far', transport: { type: 'http', url: 'https://mcp.example.test/mcp' } }],
        autoConnect: false,
        proxy: { httpsProxy: proxy.url.replace('http://', 'http://team:wrong@') }
      });
      cleanups.push(proxy.close, data.remove, () => host.close());
      const said = (await host.connect('far')).state.reason ?? '';
      assert.match(
        said,
        /^Could not connect: The proxy answered HTTP 407 Proxy Authentication Required: check the user and password/
      );
      assert.ok(!said.includes('wrong'), said);

      await host.call('providers.save', {
        id: 'p',
        name: 'Far LLM',
        baseURL: 'https://llm.example.test/v1',
        models: []
      });
      const tested = await host.call('providers.test', { providerId: 'p' });
      assert.equal(tested.ok, false);
      assert.match(
        tested.ok ? '' : tested.message,
        /^Could not connect to Far LLM \(llm\.example\.test\) through the proxy: the proxy answered HTTP 407/
      );
      assert.ok(
        proxy.seen.every((line) => line.startsWith('CONNECT ')),
        proxy.seen.join('\n')
      );
    });

    it('say that the proxy asked for a password, for an http address asked of it by its full URL as for a tunnel', async () => {
      const refuse = (res: http.ServerResponse) =>
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end('who are you?');
      const proxy = await startForwardProxy({ 'mcp.example.test': refuse, 'llm.example.test': refuse });
      const data = tempDir();
      const host = createHost({
        dataDir: data.dir,
        keyStore: new InMemoryKeyStore(),
        servers: [{ id: 'far', name: 'Far', transport: { type: 'http', url: 'http://mcp.example.test/mcp' } }],
        autoConnect: false,
        proxy: { httpProxy: proxy.url.replace('http://', 'http://team:wrong@') }
      });
      cleanups.push(proxy.close, data.remove, () => host.close());
      const said = (await host.connect('far')).state.reason ?? '';
      assert.match(
        said,
        /^Could not connect: The proxy answered HTTP 407 Proxy Authentication Required: check the user and password/
      );
      assert.ok(!said.includes('wrong'), said);

      await host.call('providers.save', {
        id: 'p',
        name: 'Far LLM',
        baseURL: 'http://llm.example.test/v1',
        models: []
      });
      const tested = await host.call('providers.test', { providerId: 'p' });
      assert.match(
        tested.ok ? '' : tested.message,
        /^Could not connect to Far LLM \(llm\.example\.test\) through the proxy: the proxy answered HTTP 407/
      );
      assert.ok(
        proxy.seen.every(
          (line) => line.startsWith('POST http://mcp.example.test/') || line.startsWith('GET http://llm.example.test/')
        ),
        proxy.seen.join('\n')
      );
    });

    it('say that the proxy could not be reached, without its password, when an MCP server over HTTP is connected through it', async () => {
      const [httpPort, httpsPort] = [await deadPort(), await deadPort()];
      const data = tempDir();
      const host = createHost({
        dataDir: data.dir,
        keyStore: new InMemoryKeyStore(),
        servers: [
          { id: 'plain', name: 'Plain', transport: { type: 'http', url: 'http://mcp.example.test/mcp' } },
          { id: 'tls', name: 'TLS', transport: { type: 'http', url: 'https://mcp.example.test/mcp' } }
        ],
        autoConnect: false,
        proxy: {
          httpProxy: `http://team:s3cret@127.0.0.1:${httpPort}`,
          httpsProxy: `http://team:s3cret@127.0.0.1:${httpsPort}`
        }
      });
      cleanups.push(data.remove, () => host.close());
      // Asked of the http proxy by its full URL, or through the https one's tunnel.
      for (const [id, port, variable] of [
        ['plain', httpPort, 'http_proxy'],
        ['tls', httpsPort, 'https_proxy']
      ] as const) {
        const view = await host.connect(id);
        const said = view.state.reason ?? '';
        assert.notEqual(view.state.status, 'ready');
        assert.equal(
          said,
          `Could not connect: The proxy http://127.0.0.1:${port} (from ${variable}) could not be reached (connection refused): check the proxy setting.`
        );
        assert.ok(!said.includes('s3cret') && !said.includes('Is the server running'), said);
      }
    });

    it('say that the proxy could not be reached, without its password, when an LLM provider is called through it', async () => {
      const port = await deadPort();
      // The `fetch` the host gives its provider clients.
      const client = createProviderClient(
        { id: 'p', name: 'Far LLM', baseURL: 'http://llm.example.test/v1', models: [] },
        'k-1',
        { fetch: providerFetchThrough(proxyDispatcher({ httpProxy: `http://team:s3cret@127.0.0.1:${port}` })) }
      );
      const failure = await client.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
        .then(
          () => assert.fail('answered'),
          (error: unknown) =>
            classifyProviderError(error, {
              providerName: 'Far LLM',
              baseURL: 'http://llm.example.test/v1',
              apiKey: 'k-1'
            })
        );
      assert.equal(failure.kind, 'unreachable');
      assert.equal(
        failure.message,
        `Could not connect to Far LLM (llm.example.test) through the proxy: the proxy http://127.0.0.1:${port} (from http_proxy) could not be reached (connection refused): check the proxy setting.`
      );
      assert.ok(!failure.message.includes('s3cret') && !failure.message.includes('Is the server running'));
    });

    it('say that the proxy could not be reached, without its password, when a provider’s connection is tested through it', async () => {
      const port = await deadPort();
      // One proxy that nothing listens at, one whose host name is not found.
      for (const [proxy, shown, why] of [
        [`http://team:s3cret@127.0.0.1:${port}`, `http://127.0.0.1:${port}`, 'connection refused'],
        ['http://team:s3cret@proxy.invalid:3128', 'http://proxy.invalid:3128', 'its host name was not found']
      ] as const) {
        const data = tempDir();
        const host = createHost({
          dataDir: data.dir,
          keyStore: new InMemoryKeyStore(),
          servers: [],
          autoConnect: false,
          proxy: { httpsProxy: proxy }
        });
        cleanups.push(data.remove, () => host.close());
        await host.call('providers.save', {
          id: 'p',
          name: 'Far LLM',
          baseURL: 'https://llm.example.test/v1',
          models: []
        });
        const tested = await host.call('providers.test', { providerId: 'p' });
        const message = tested.ok ? '' : tested.message;
        assert.equal(
          message,
          `Could not connect to Far LLM (llm.example.test) through the proxy: the proxy ${shown} (from https_proxy) could not be reached (${why}): check the proxy setting.`
        );
        assert.ok(!message.includes('s3cret') && !message.includes('Is the server running'), message);
      }
    });

    it('still blame the server, not the proxy, when the proxy is up and the server behind it is not', async () => {
      const proxy = await startForwardProxy({ 'mcp.example.test': await deadPort() });
      const data = tempDir();
      const host = createHost({
        dataDir: data.dir,
        keyStore: new InMemoryKeyStore(),
        servers: [
          { id: 'plain', name: 'Plain', transport: { type: 'http', url: 'http://mcp.example.test/mcp' } },
          { id: 'tls', name: 'TLS', transport: { type: 'http', url: 'https://mcp.example.test/mcp' } }
        ],
        autoConnect: false,
        proxy: { httpProxy: proxy.url }
      });
      cleanups.push(proxy.close, data.remove, () => host.close());
      const plain = (await host.connect('plain')).state.reason ?? '';
      assert.match(
        plain,
        /^Could not connect: The server at http:\/\/mcp\.example\.test\/mcp answered 502 Bad Gateway: .* Is it running\?/
      );
      // A tunnel the proxy could not open to it: said to be the proxy's answer, as any refusal.
      const tls = (await host.connect('tls')).state.reason ?? '';
      assert.equal(
        tls,
        "Could not connect: The proxy answered HTTP 502 Bad Gateway instead of connecting (the server may be down, or out of the proxy's reach)."
      );
      for (const said of [plain, tls]) assert.ok(!said.includes('could not be reached'), said);
    });

    it('take the environment’s proxy by default (one without a scheme as http), and none when told none', async () => {
      const endpoint = await serveHttp(buildTaskPeer);
      const mcpPort = Number(new URL(endpoint.url).port);
      // 127.0.0.2 is no address of Taskdesk's own: proxied, and the proxy passes it on to the server.
      const proxy = await startForwardProxy({ '127.0.0.2': mcpPort });
      const saved = process.env.http_proxy;
      process.env.http_proxy = proxy.url.replace('http://', '');
      cleanups.push(endpoint.close, proxy.close, () => {
        if (saved === undefined) delete process.env.http_proxy;
        else process.env.http_proxy = saved;
      });
      const url = `http://127.0.0.2:${mcpPort}/mcp`;
      const hostWith = (options: { proxy?: null }) => {
        const data = tempDir();
        const host = createHost({
          dataDir: data.dir,
          servers: [{ id: 'web', name: 'Far', transport: { type: 'http', url } }],
          autoConnect: false,
          connectTimeoutMs: 5_000,
          ...options
        });
        cleanups.push(data.remove, () => host.close());
        return host;
      };

      const first = hostWith({});
      const viaEnvironment = await first.connect('web');
      assert.equal(viaEnvironment.state.status, 'ready', viaEnvironment.state.reason);
      assert.ok(proxy.seen.length > 0 && proxy.seen.every((line) => line.includes(`http://127.0.0.2:${mcpPort}/mcp`)));
      // Closed, so that nothing more of its own (its event stream) comes through the proxy.
      await first.close();

      // Told none: straight to 127.0.0.2, where nothing listens.
      const seenBefore = proxy.seen.length;
      const direct = await hostWith({ proxy: null }).connect('web');
      assert.notEqual(direct.state.status, 'ready');
      assert.equal(proxy.seen.length, seenBefore);
    });

    it('give a stdio server the login shell’s proxy when Taskdesk was started without one', async () => {
      const saved = { lower: process.env.https_proxy, upper: process.env.HTTPS_PROXY };
      delete process.env.https_proxy;
      delete process.env.HTTPS_PROXY;
      cleanups.push(() => {
        if (saved.lower !== undefined) process.env.https_proxy = saved.lower;
        if (saved.upper !== undefined) process.env.HTTPS_PROXY = saved.upper;
      });
      const data = tempDir();
      const host = createHost({
        dataDir: data.dir,
        autoConnect: false,
        // As an app started from the Dock finds it: the proxy is set in the shell's profile only.
        loginEnv: () => Promise.resolve({ PATH: process.env.PATH, https_proxy: 'http://from-login.example:3128' }),
        servers: [
          {
            id: 'tells',
            name: 'Tells its proxy',
            transport: {
              type: 'stdio',
              command: process.execPath,
              args: ['-e', 'console.error("proxy=" + process.env.https_proxy); process.exit(1)']
            }
          }
        ]
      });
      cleanups.push(data.remove, () => host.close());
      const view = await host.connect('tells');
      assert.notEqual(view.state.status, 'ready');
      const { text } = await host.call('servers.stderr', { serverId: 'tells' });
      assert.match(text, /proxy=http:\/\/from-login\.example:3128/);
    });

    it('go direct, and say so without the value, when the proxy named is not one Taskdesk takes', () => {
      const saved = process.env.http_proxy;
      process.env.http_proxy = 'ftp://team:s3cret@proxy.example:21';
      cleanups.push(() => {
        if (saved === undefined) delete process.env.http_proxy;
        else process.env.http_proxy = saved;
      });
      const data = tempDir();
      const host = createHost({ dataDir: data.dir, autoConnect: false, servers: [] });
      cleanups.push(data.remove, () => host.close());
      const said = host.warnings.map((warning) => warning.message);
      assert.deepEqual(said, [
        'The proxy http_proxy names is a ftp one; Taskdesk takes http, https and socks5 proxies: Taskdesk connects to LLM providers and servers over HTTP directly. Correct the variable and start Taskdesk again.'
      ]);
      assert.ok(!said.join(' ').includes('s3cret'));
    });
  });
});
