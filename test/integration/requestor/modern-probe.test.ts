import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../../app/core/clock.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { ServerEras } from '../../../app/host/server-eras.js';
import type { ConnectionState } from '../../../app/contract/host-api.js';
import { ownerIdentity, type ServerConfig } from '../../../app/mcp/server-config.js';
import { ServerConnection } from '../../../app/mcp/server-connection.js';
import type { TaskReceiver } from '../../../app/receiver/task-receiver.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import { compiledProgram } from '../../support/compiled-program.js';
import { tempDir } from '../../support/host-fixture.js';
import { recordSends, type SentMessage } from '../../support/requestor-harness.js';

/**
 * The `server/discover` probe over stdio against servers that make it hard (real processes):
 * a legacy server that chokes on it and exits on the next line, one that answers it with an
 * error and exits, one that ignores it, a modern server slower to start than the probe timeout;
 * and the era remembered per server (not probed again when legacy, across a restart; a server
 * that changed is probed once; a corrupt file is moved aside).
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const support = (name: string) => fileURLToPath(new URL(`../../support/${name}`, import.meta.url));
/** Short, so that servers that ignore the probe cost little; no test waits on it. */
const PROBE_TIMEOUT_MS = 300;

const legacyServer = (id: string, onProbe: 'choke' | 'error-exit' | 'ignore', log: string): ServerConfig => ({
  id,
  name: `Legacy ${id}`,
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [compiledProgram(support('legacy-probe-server.ts')), JSON.stringify({ onProbe, log })],
    cwd: root
  },
  autoConnect: false
});

/** A server that answers −32601 to every request (`all`), or a modern one that does so to `initialize` only. */
const methodNotFound = (id: string, refuse: 'all' | 'initialize'): ServerConfig => ({
  id,
  name: `Method not found ${id}`,
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [compiledProgram(support('method-not-found-server.ts')), JSON.stringify({ refuse })],
    cwd: root
  },
  autoConnect: false
});

const slowModern: ServerConfig = {
  id: 'slow-modern',
  name: 'Slow modern',
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [compiledProgram(support('slow-modern-server.ts'))],
    cwd: root
  },
  autoConnect: false
};

const modern: ServerConfig = {
  id: 'modern',
  name: 'Modern',
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [compiledProgram(support('modern-task-server.ts')), '{"legacy":"reject"}'],
    cwd: root
  },
  autoConnect: false
};

/**
 * A host over `dataDir` that records, per server id, what it sent to each process it started,
 * and the transports of those processes.
 */
function hostOver(
  dataDir: string,
  servers: ServerConfig[]
): {
  host: Host;
  processes: (serverId: string) => SentMessage[][];
  transports: (serverId: string) => StdioClientTransport[];
} {
  const wire = new Map<string, SentMessage[][]>();
  const started = new Map<string, StdioClientTransport[]>();
  const host = createHost({
    dataDir,
    autoConnect: false,
    probeTimeoutMs: PROBE_TIMEOUT_MS,
    servers,
    transportFactory: (config) => {
      const target = config.transport;
      if (target.type !== 'stdio') throw new Error('stdio only here');
      const transport = new StdioClientTransport({
        command: target.command,
        args: target.args,
        cwd: target.cwd ?? root,
        env: getDefaultEnvironment(),
        stderr: 'pipe'
      });
      wire.set(config.id, [...(wire.get(config.id) ?? []), recordSends(transport, systemClock)]);
      started.set(config.id, [...(started.get(config.id) ?? []), transport]);
      return transport;
    }
  });
  return {
    host,
    processes: (serverId) => wire.get(serverId) ?? [],
    transports: (serverId) => started.get(serverId) ?? []
  };
}

/** The requests each process a server log names saw, in order: one list per process. */
function seenByProcess(log: string): string[][] {
  const byPid = new Map<string, string[]>();
  for (const line of fs.readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const [pid = '', method = ''] = line.split(' ');
    byPid.set(pid, [...(byPid.get(pid) ?? []), method]);
  }
  return [...byPid.values()];
}

/** The eras remembered in a data directory, as a restarted host reads them. */
const erasIn = (dir: string) =>
  new ServerEras({ dir, corruptDir: path.join(dir, 'corrupt'), factory: confStoreFactory });

/**
 * The requests a process got, but the `subscriptions/listen` a ready modern server that declared
 * `tools.listChanged` is sent (when it arrives is no part of the probe).
 */
const requestsOf = (sent: SentMessage[]) =>
  sent
    .filter((m) => m.method !== undefined && m.id !== undefined && m.method !== 'subscriptions/listen')
    .map((m) => m.method);

describe('the era probe over stdio and the remembered era', () => {
  const data = tempDir();
  const logs = tempDir('taskdesk-probe-logs-');
  const log = (name: string) => path.join(logs.dir, `${name}.log`);
  const hosts: Host[] = [];
  const dirs: Array<() => void> = [];
  after(async () => {
    await Promise.all(hosts.map((host) => host.close()));
    data.remove();
    logs.remove();
    for (const remove of dirs) remove();
  });

  /** Another data directory, removed at the end. */
  function freshDir(): string {
    const made = tempDir();
    dirs.push(made.remove);
    return made.dir;
  }

  function start(dataDir: string, servers: ServerConfig[]) {
    const made = hostOver(dataDir, servers);
    hosts.push(made.host);
    return made;
  }

  it('connects a legacy server that chokes on the probe and exits on the next line, on a fresh process', async () => {
    const { host, processes } = start(freshDir(), [legacyServer('choke', 'choke', log('choke'))]);
    const view = await host.connect('choke');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    assert.deepEqual(
      processes('choke').map(requestsOf),
      [['server/discover', 'initialize'], ['initialize']],
      'initialize again on a second process, not probed'
    );
    assert.deepEqual(seenByProcess(log('choke')), [['server/discover', 'initialize'], ['initialize']]);
    const tools = await host.call('tools.list', { serverId: 'choke' });
    assert.ok(tools.some((tool) => tool.name === 'work-required'));
  });

  it('connects a legacy server that answers the probe with an error and exits, on a fresh process', async () => {
    const { host, processes } = start(freshDir(), [legacyServer('error-exit', 'error-exit', log('error-exit'))]);
    const view = await host.connect('error-exit');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    assert.equal(processes('error-exit').length, 2);
    assert.deepEqual(requestsOf(processes('error-exit')[1] ?? []), ['initialize']);
  });

  it('takes a modern server that starts reading after the probe timed out for modern (its late answer wins over initialize)', async () => {
    const { host, processes } = start(freshDir(), [slowModern]);
    const view = await host.connect('slow-modern');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    assert.equal(view.state.serverInfo?.name, 'modern-task-server');
    assert.deepEqual(
      processes('slow-modern').map(requestsOf),
      [['server/discover', 'initialize']],
      'one process: the abandoned initialize did not stop it'
    );
    const quick = await host.call('tools.call', {
      serverId: 'slow-modern',
      name: 'quick',
      arguments: { text: 'late' }
    });
    assert.equal(
      quick.type === 'result' ? (quick.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'quick: late'
    );
  });

  it('connects a legacy server that ignores the probe; remembered as legacy, the next connect and a restarted host do not probe', async () => {
    const config = legacyServer('ignore', 'ignore', log('ignore'));
    const first = start(data.dir, [config]);
    assert.equal((await first.host.connect('ignore')).state.era, 'legacy');
    await first.host.disconnect('ignore');
    const again = await first.host.connect('ignore');
    assert.equal(again.state.status, 'ready', again.state.reason);
    assert.equal(again.state.era, 'legacy');
    await first.host.close();

    const second = start(data.dir, [config]);
    assert.deepEqual(second.host.warnings, []);
    const restarted = await second.host.connect('ignore');
    assert.equal(restarted.state.status, 'ready', restarted.state.reason);
    assert.deepEqual(
      seenByProcess(log('ignore')),
      [['server/discover', 'initialize'], ['initialize'], ['initialize']],
      'probed on the first connect only'
    );
    assert.deepEqual(second.processes('ignore').map(requestsOf), [['initialize']]);
    const saved = JSON.parse(fs.readFileSync(path.join(data.dir, 'server-eras.json'), 'utf8')) as {
      schemaVersion: number;
      value: Record<string, string>;
    };
    assert.deepEqual(saved, { schemaVersion: 1, value: { [ownerIdentity(config)]: 'legacy' } });
  });

  it('probes once a server remembered as legacy that now refuses initialize, and remembers it as modern', async () => {
    const dir = freshDir();
    new ServerEras({ dir, corruptDir: path.join(dir, 'corrupt'), factory: confStoreFactory }).set(
      ownerIdentity(modern),
      'legacy'
    );
    const { host, processes } = start(dir, [modern]);
    const view = await host.connect('modern');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    const [first, second] = processes('modern').map(requestsOf);
    assert.deepEqual(first, ['initialize'], 'remembered as legacy: no probe');
    // Probed on a second process. A slow start under load may let initialize follow the probe
    // before its answer; the late answer still makes the server modern (see the slow server above).
    assert.equal(second?.[0], 'server/discover');
    assert.equal(processes('modern').length, 2);
    const eras = new ServerEras({ dir, corruptDir: path.join(dir, 'corrupt'), factory: confStoreFactory });
    assert.equal(eras.get(ownerIdentity(modern)), 'modern');
  });

  it('probes once a server remembered as legacy that now refuses initialize and outlives its stdin by seconds, and remembers it as modern', async () => {
    const dir = freshDir();
    // The same modern server, kept running after its stdin ends until the SDK's close stops it
    // (SIGTERM, two seconds later), as a server busy with something else may be. The SDK's
    // client holds one transport at a time, until the process of the refused initialize is gone.
    const stdio = modern.transport as Extract<ServerConfig['transport'], { type: 'stdio' }>;
    const lingering: ServerConfig = {
      ...modern,
      id: 'modern-lingering',
      transport: { ...stdio, args: ['--import', 'data:text/javascript,setInterval(() => {}, 60000)', ...stdio.args] }
    };
    erasIn(dir).set(ownerIdentity(lingering), 'legacy');
    const { host, processes, transports } = start(dir, [lingering]);
    const view = await host.connect('modern-lingering');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    const [first, second] = processes('modern-lingering').map(requestsOf);
    assert.deepEqual(first, ['initialize'], 'remembered as legacy: no probe');
    assert.equal(second?.[0], 'server/discover');
    assert.equal(erasIn(dir).get(ownerIdentity(lingering)), 'modern');
    // The ready process outlives its stdin as well: closed with the host, it is stopped at once
    // rather than by the SDK two seconds later (a wait no part of this test).
    const pid = transports('modern-lingering').at(-1)?.pid;
    assert.ok(pid, 'the ready process runs');
    const closed = host.close();
    process.kill(pid, 'SIGTERM');
    await closed;
  });

  it('fails at once, with the server’s own error, a server that answered the probe with −32601 and refuses initialize the same way', async () => {
    const dir = freshDir();
    const config = methodNotFound('refuses-all', 'all');
    const { host, processes } = start(dir, [config]);
    const view = await host.connect('refuses-all');
    assert.equal(view.state.status, 'failed');
    assert.match(view.state.reason ?? '', /Method not found/);
    assert.doesNotMatch(view.state.reason ?? '', /server\/discover/, 'an answered probe is not waited for again');
    assert.deepEqual(processes('refuses-all').map(requestsOf), [['server/discover', 'initialize']]);
    assert.equal(erasIn(dir).get(ownerIdentity(config)), undefined);
  });

  it('probes once a server remembered as legacy that fails initialize for another reason, and forgets its era', async () => {
    const dir = freshDir();
    const config = methodNotFound('still-refuses', 'all');
    erasIn(dir).set(ownerIdentity(config), 'legacy');
    const { host, processes } = start(dir, [config]);
    const view = await host.connect('still-refuses');
    assert.equal(view.state.status, 'failed');
    assert.match(view.state.reason ?? '', /Method not found/);
    assert.deepEqual(
      processes('still-refuses').map(requestsOf),
      [['initialize'], ['server/discover', 'initialize']],
      'one probe in the connect, no more'
    );
    assert.equal(erasIn(dir).get(ownerIdentity(config)), undefined, 'the next connect probes');
  });

  it('probes once a server remembered as legacy that now answers initialize with −32601 (a modern server of another SDK), and remembers it as modern', async () => {
    const dir = freshDir();
    const config = methodNotFound('other-sdk', 'initialize');
    erasIn(dir).set(ownerIdentity(config), 'legacy');
    const { host, processes } = start(dir, [config]);
    const view = await host.connect('other-sdk');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    const [first, second] = processes('other-sdk').map(requestsOf);
    assert.deepEqual(first, ['initialize'], 'remembered as legacy: no probe');
    // Under load the probe may time out before the slow start answers it: the late answer still wins.
    assert.equal(second?.[0], 'server/discover');
    assert.equal(processes('other-sdk').length, 2);
    assert.equal(erasIn(dir).get(ownerIdentity(config)), 'modern');
    const quick = await host.call('tools.call', {
      serverId: 'other-sdk',
      name: 'quick',
      arguments: { text: 'changed' }
    });
    assert.equal(
      quick.type === 'result' ? (quick.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'quick: changed'
    );
  });

  it('moves a corrupt era file aside with a warning, and probes again', async () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, 'server-eras.json'), '{ not json');
    const { host, processes } = start(dir, [legacyServer('ignore-2', 'ignore', log('ignore-2'))]);
    const warning = host.warnings.find((w) => /remembered server eras/.test(w.message));
    assert.ok(warning, JSON.stringify(host.warnings));
    assert.ok(warning.movedTo && fs.existsSync(warning.movedTo), 'the unreadable file is kept, moved aside');
    const view = await host.connect('ignore-2');
    assert.equal(view.state.era, 'legacy');
    assert.equal(requestsOf(processes('ignore-2')[0] ?? [])[0], 'server/discover');
  });
});

/** Whether `message` is a request for `method` (with its id). */
function isRequest(
  message: JSONRPCMessage,
  method: string
): message is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in message && message.method === method && 'id' in message;
}

/** A connection to the far end of an in-memory pair, which `serve` scripts. */
async function inMemoryConnection(
  serve: (server: InMemoryTransport, message: JSONRPCMessage) => void,
  options: Partial<
    Pick<ConstructorParameters<typeof ServerConnection>[0], 'eras' | 'onState' | 'probeTimeoutMs' | 'connectTimeoutMs'>
  > = {}
): Promise<ServerConnection> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = (message) => serve(server, message);
  await server.start();
  return new ServerConnection({
    config: {
      id: 'in-memory',
      name: 'in-memory',
      transport: { type: 'stdio', command: 'unused', args: [] },
      autoConnect: false
    },
    receiver: {} as TaskReceiver,
    transportFactory: () => client,
    onState: () => undefined,
    ...options
  });
}

const discoverResult = {
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'in-memory', version: '1' } }
};

describe('closing a connection reports one close', () => {
  const data = tempDir();
  const hosts: Host[] = [];
  after(async () => {
    await Promise.all(hosts.map((host) => host.close()));
    data.remove();
  });

  /** A host whose server `id` is the far end of an in-memory pair that `serve` scripts; records the server.state events. */
  async function inMemory(id: string, serve: (server: InMemoryTransport, message: JSONRPCMessage) => void) {
    const [client, server] = InMemoryTransport.createLinkedPair();
    server.onmessage = (message) => serve(server, message);
    await server.start();
    const host = createHost({
      dataDir: path.join(data.dir, id),
      autoConnect: false,
      probeTimeoutMs: 60_000,
      servers: [{ id, name: id, transport: { type: 'stdio', command: 'unused', args: [] }, autoConnect: false }],
      transportFactory: () => client
    });
    hosts.push(host);
    const states: string[] = [];
    host.on('server.state', ({ state }) => states.push(state.status));
    return { host, states };
  }

  it('reports one close for a close during the probe', async () => {
    let host: Host | undefined;
    const made = await inMemory('closed-probing', (_server, message) => {
      if (isRequest(message, 'server/discover')) void host?.disconnect('closed-probing');
    });
    host = made.host;
    const view = await host.connect('closed-probing');
    assert.equal(view.state.status, 'closed');
    assert.deepEqual(made.states, ['connecting', 'closed']);
  });

  it('reports one close for a close of a ready modern connection', async () => {
    const { host, states } = await inMemory('closed-ready', (server, message) => {
      if (isRequest(message, 'server/discover'))
        void server.send({ jsonrpc: '2.0', id: message.id, result: discoverResult });
    });
    assert.equal((await host.connect('closed-ready')).state.era, 'modern');
    assert.equal((await host.disconnect('closed-ready')).state.status, 'closed');
    assert.deepEqual(states, ['connecting', 'ready', 'closed']);
  });

  it('is not ready when closed just as the connect succeeds', async () => {
    const states: ConnectionState['status'][] = [];
    const connection: ServerConnection = await inMemoryConnection(
      (server, message) => {
        if (isRequest(message, 'server/discover'))
          void server.send({ jsonrpc: '2.0', id: message.id, result: discoverResult });
      },
      {
        // The era is remembered as the connect succeeds: close there.
        eras: { get: () => undefined, set: () => void connection.close(), forget: () => undefined },
        onState: (state) => states.push(state.status)
      }
    );
    const state = await connection.connect();
    assert.equal(state.status, 'closed');
    await connection.close();
    assert.deepEqual(states, ['connecting', 'closed']);
  });
});

describe('a probe answered late, as a legacy server does', () => {
  /**
   * A server slow to start that refuses both requests with −32601 once the second arrives (the
   * client gave up on the probe and sent initialize), in the order `order`.
   */
  const refusesBothLate = (order: 'probe first' | 'initialize first') => {
    const held: Array<{ id: string | number; method: string }> = [];
    return (server: InMemoryTransport, message: JSONRPCMessage) => {
      if (!('method' in message) || !('id' in message)) return;
      held.push({ id: message.id, method: message.method });
      if (held.length < 2) return;
      const answers = order === 'probe first' ? held : [...held].reverse();
      for (const { id } of answers)
        void server.send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    };
  };

  for (const order of ['probe first', 'initialize first'] as const) {
    it(`fails at once with the server’s error when the late answer is legacy (${order})`, async () => {
      const connection = await inMemoryConnection(refusesBothLate(order), {
        probeTimeoutMs: 50,
        connectTimeoutMs: 30_000
      });
      const state = await connection.connect();
      assert.equal(state.status, 'failed');
      assert.equal(state.reason, 'Could not connect: Method not found');
      await connection.close();
    });
  }
});
