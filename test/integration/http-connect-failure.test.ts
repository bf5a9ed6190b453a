import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { networkFailureText } from '../../app/mcp/network-failure.js';
import { tempDir } from '../support/host-fixture.js';

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a Streamable HTTP server that cannot be reached', () => {
  it('says what the network said (nothing listening at the address and port), not "fetch failed"', async () => {
    const port = await closedPort();
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'web', name: 'Web', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }]
    });
    try {
      const view = await host.connect('web');
      assert.equal(view.state.status, 'failed');
      assert.equal(
        view.state.reason,
        `Could not connect: Nothing is listening at 127.0.0.1:${port}: is the server running, and is the URL's port right? (ECONNREFUSED).`
      );
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('names an unknown host, and leaves an error it has no words for alone', () => {
    // As Node's fetch fails on a name DNS does not know (built here: this machine may have no DNS).
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND mcp.nowhere.example'), {
        code: 'ENOTFOUND',
        hostname: 'mcp.nowhere.example'
      })
    });
    assert.equal(
      networkFailureText(error),
      'The host name mcp.nowhere.example was not found: is the URL right? (ENOTFOUND).'
    );
    assert.equal(networkFailureText(new Error('something else')), undefined);
  });

  it('says so when the URL has a port fetch refuses, rather than "fetch failed"', async () => {
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'web', name: 'Web', transport: { type: 'http', url: 'http://127.0.0.1:1/mcp' } }]
    });
    try {
      const view = await host.connect('web');
      assert.equal(view.state.status, 'failed');
      assert.equal(
        view.state.reason,
        'Could not connect: Taskdesk cannot connect to this port: it is one of the ports web clients refuse (as browsers do). Use another port.'
      );
    } finally {
      await host.close();
      data.remove();
    }
  });
});
