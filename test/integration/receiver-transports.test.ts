import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../app/host/host.js';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { serveHttp } from '../support/http-peer.js';
import { buildTaskPeer } from '../support/task-peer-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const peerScript = path.join(here, '..', 'support', 'task-peer-server.ts');
const stdioPeer = (id = 'peer'): ServerConfigInput => ({
  id,
  name: 'Task peer (stdio)',
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', peerScript] }
});

/** Calls one of the peer's tools, which runs a task on Taskdesk and reports what it saw. */
async function callPeerTool(host: Host, serverId: string, name: string, args: Record<string, unknown> = {}) {
  const result = await host.connection(serverId)!.client.callTool({ name, arguments: args }, CallToolResultSchema);
  const text = (result as { content: Array<{ text: string }> }).content[0]!.text;
  return JSON.parse(text) as {
    created: { taskId: string; status: string };
    statuses: string[];
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

async function exerciseBothKinds(host: Host, serverId: string): Promise<void> {
  const question = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'elicitation');
  const elicited = callPeerTool(host, serverId, 'elicit-as-task', { ttl: 60_000 });
  const { item } = await question;
  assert.equal(item.serverId, serverId);
  await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Grace' } } });
  const report = await elicited;
  assert.equal(report.created.status, 'working');
  assert.equal(report.statuses.at(-1), 'completed');
  assert.deepEqual(report.result?.content, { name: 'Grace' });
  assert.deepEqual((report.result?._meta as Record<string, unknown>)['io.modelcontextprotocol/related-task'], {
    taskId: report.created.taskId
  });

  const samplingItem = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling');
  const sampled = callPeerTool(host, serverId, 'sample-as-task');
  await host.call('inbox.answer', {
    id: (await samplingItem).item.id,
    answer: { action: 'reply', text: 'Hello from a person', model: 'human' }
  });
  const sampleReport = await sampled;
  assert.deepEqual(sampleReport.result?.content, { type: 'text', text: 'Hello from a person' });
}

describe('receiver over real transports', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('serves task-augmented requests from a server in a child process over stdio', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, servers: [stdioPeer()], autoConnect: false });
    cleanups.push(data.remove, () => host.close());
    const view = await host.connect('peer');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.serverInfo?.name, 'task-peer');
    await exerciseBothKinds(host, 'peer');
  });

  it('serves task-augmented requests from a Streamable HTTP server on 127.0.0.1', async () => {
    const endpoint = await serveHttp(buildTaskPeer);
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      servers: [{ id: 'web', name: 'Task peer (HTTP)', transport: { type: 'http', url: endpoint.url } }],
      autoConnect: false
    });
    cleanups.push(data.remove, endpoint.close, () => host.close());
    const view = await host.connect('web');
    assert.equal(view.state.status, 'ready', view.state.reason);
    await exerciseBothKinds(host, 'web');
  });

  it('reports a server that exits, one that never answers, and one that dies mid-session, without hanging', async () => {
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      connectTimeoutMs: 1_000,
      servers: [
        {
          id: 'exits',
          name: 'Exits',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: ['-e', 'console.error("boom: no config"); process.exit(3)']
          }
        },
        {
          id: 'silent',
          name: 'Silent',
          transport: { type: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }
        },
        {
          id: 'missing',
          name: 'Missing',
          transport: { type: 'stdio', command: '/nonexistent/taskdesk-server', args: [] }
        }
      ]
    });
    cleanups.push(data.remove, () => host.close());
    // The one server that must come up is a tsx child, which can take longer than the 1 s that
    // makes 'silent' fail fast on a loaded machine: it is connected through a second host with
    // the default timeout.
    const patientData = tempDir();
    const patient = createHost({ dataDir: patientData.dir, autoConnect: false, servers: [stdioPeer('dies')] });
    cleanups.push(patientData.remove, () => patient.close());
    const exits = await host.connect('exits');
    assert.equal(exits.state.status, 'failed');
    assert.match(exits.state.reason ?? '', /boom: no config|closed/);
    const silent = await host.connect('silent');
    assert.equal(silent.state.status, 'failed');
    assert.match(silent.state.reason ?? '', /started but did not answer in 1 s\. Is it an MCP server\?/);
    const missing = await host.connect('missing');
    assert.equal(missing.state.status, 'failed');

    const dies = await patient.connect('dies');
    assert.equal(dies.state.status, 'ready', dies.state.reason);
    const failed = nextEvent(patient, 'server.state', (p) => p.serverId === 'dies' && p.state.status === 'failed');
    const pid = (patient.connection('dies')!.client.transport as unknown as { pid: number | null }).pid;
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    assert.match((await failed).state.reason ?? '', /^The server was stopped by signal SIGKILL/);
    const listed = await host.call('servers.list', {});
    assert.deepEqual(
      listed.map((server) => [server.id, server.state.status]),
      [
        ['exits', 'failed'],
        ['silent', 'failed'],
        ['missing', 'failed']
      ]
    );
    assert.deepEqual(
      (await patient.call('servers.list', {})).map((server) => [server.id, server.state.status]),
      [['dies', 'failed']]
    );
  });
});
