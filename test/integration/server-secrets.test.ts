import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { tempDir, filesUnder } from '../support/host-fixture.js';

/** Every secret below has this in it, so that one search finds any of them. */
const MARK = 'SECRET';

describe('server credentials never leave Taskdesk', { skip: process.platform === 'win32' }, () => {
  let echo: http.Server;
  let port: number;
  before(async () => {
    // A hostile server: it quotes the request's path, query and Authorization back in its error.
    echo = http.createServer((request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`cannot serve ${request.url} for ${request.headers.authorization}`);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    port = (echo.address() as AddressInfo).port;
  });
  after(() => {
    echo.closeAllConnections();
    echo.close();
  });

  it('redacts URL credentials, query secrets, headers, env and args from reasons, events, audit and files', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    const events: unknown[] = [];
    host.on('server.state', (payload) => events.push(payload));
    try {
      await host.call('servers.add', {
        id: 'creds',
        name: 'Credentials in the URL',
        transport: {
          type: 'http',
          url: `http://alice-${MARK}:pw-${MARK}-1@127.0.0.1:${port}/mcp?token=tok-${MARK}-2&plain=visible`
        }
      });
      await host.call('servers.add', {
        id: 'query',
        name: 'Secrets in the query',
        transport: {
          type: 'http',
          url: `http://127.0.0.1:${port}/mcp?api_key=ak-${MARK}-3&signature=sig-${MARK}-4&access_token=acc-${MARK}-6&auth=au-${MARK}-9&key=k-${MARK}-10`,
          headers: { Authorization: `Bearer hdr-${MARK}-5` }
        }
      });
      await host.call('servers.add', {
        id: 'stdio',
        name: 'Secrets in env and args',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [
            '-e',
            'console.error("env", process.env.MY_TOKEN, "args", process.argv.slice(1).join(" ")); process.exit(3)',
            '--',
            `--api-key=arg-${MARK}-8`
          ],
          env: { MY_TOKEN: `env-${MARK}-7` }
        }
      });
      const reasons: string[] = [];
      for (const serverId of ['creds', 'query', 'stdio']) {
        const view = await host.call('servers.connect', { serverId });
        assert.equal(view.state.status, 'failed');
        reasons.push(view.state.reason!);
      }
      // The reasons still say what happened, and which server part was hidden.
      assert.match(reasons[0]!, /URL that includes credentials: http:\/\/\[redacted\]@127\.0\.0\.1/);
      assert.match(reasons[0]!, /plain=visible/);
      assert.match(reasons[1]!, /api_key=\[redacted\]&signature=\[redacted\]/);
      assert.match(reasons[2]!, /env \[redacted\] args/);

      const list = JSON.stringify(await host.call('servers.list', {}));
      const audit = JSON.stringify(await host.call('audit.read', { limit: 5000 }));
      assert.ok(audit.includes('[redacted]'), 'the audit log has the failures, redacted');
      for (const [what, text] of [
        ['servers.list', list],
        ['server.state events', JSON.stringify(events)],
        ['audit.read', audit],
        ['reasons', reasons.join('\n')]
      ] as const) {
        assert.ok(
          !text.includes(MARK),
          `${what} holds no secret: ${text.slice(text.indexOf(MARK) - 80, text.indexOf(MARK) + 20)}`
        );
      }
    } finally {
      await host.close();
    }
    // On disk, only the server list holds them (those not marked secret), and it is its owner's only.
    const serversFile = path.join(data.dir, 'servers.json');
    for (const file of filesUnder(data.dir).filter((file) => file !== serversFile)) {
      assert.ok(!fs.readFileSync(file, 'utf8').includes(MARK), `${path.relative(data.dir, file)} holds no secret`);
    }
    const saved = fs.readFileSync(serversFile, 'utf8');
    assert.ok(saved.includes(`env-${MARK}-7`), 'the server list keeps what it needs');
    // An Authorization header is always a secret: it went to the key store, not the server list.
    assert.ok(!saved.includes(`hdr-${MARK}-5`), 'the Authorization header is not in the server list');
    assert.equal(fs.statSync(serversFile).mode & 0o777, 0o600);
    data.remove();
  });

  it('narrows a server list an older build left readable by others', async () => {
    const data = tempDir();
    try {
      const first = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
      await first.call('servers.add', {
        id: 's',
        name: 'S',
        transport: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer x' } }
      });
      await first.close();
      const file = path.join(data.dir, 'servers.json');
      fs.chmodSync(file, 0o644);
      const second = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(
        (await second.call('servers.list', {})).map((view) => view.id),
        ['s']
      );
      await second.close();
    } finally {
      data.remove();
    }
  });
});
