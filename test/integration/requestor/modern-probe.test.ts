import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { systemClock } from '../../../app/core/clock.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { ServerEras } from '../../../app/host/server-eras.js';
import { ownerIdentity, type ServerConfig } from '../../../app/mcp/server-config.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
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
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', support('legacy-probe-server.ts'), JSON.stringify({ onProbe, log })], cwd: root },
  autoConnect: false
});

const slowModern: ServerConfig = {
  id: 'slow-modern',
  name: 'Slow modern',
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', support('slow-modern-server.ts')], cwd: root },
  autoConnect: false
};

const modern: ServerConfig = {
  id: 'modern',
  name: 'Modern',
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', support('modern-task-server.ts'), '{"legacy":"reject"}'], cwd: root },
  autoConnect: false
};

/** A host over `dataDir` that records, per server id, what it sent to each process it started. */
function hostOver(dataDir: string, servers: ServerConfig[]): { host: Host; processes: (serverId: string) => SentMessage[][] } {
  const wire = new Map<string, SentMessage[][]>();
  const host = createHost({
    dataDir,
    autoConnect: false,
    probeTimeoutMs: PROBE_TIMEOUT_MS,
    servers,
    transportFactory: (config) => {
      const target = config.transport;
      if (target.type !== 'stdio') throw new Error('stdio only here');
      const transport = new StdioClientTransport({ command: target.command, args: target.args, cwd: target.cwd ?? root, env: getDefaultEnvironment(), stderr: 'pipe' });
      wire.set(config.id, [...(wire.get(config.id) ?? []), recordSends(transport, systemClock)]);
      return transport;
    }
  });
  return { host, processes: (serverId) => wire.get(serverId) ?? [] };
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

const requestsOf = (sent: SentMessage[]) => sent.filter((m) => m.method !== undefined && m.id !== undefined).map((m) => m.method);

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
    assert.deepEqual(processes('choke').map(requestsOf), [['server/discover', 'initialize'], ['initialize']], 'initialize again on a second process, not probed');
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
    assert.deepEqual(processes('slow-modern').map(requestsOf), [['server/discover', 'initialize']], 'one process: the abandoned initialize did not stop it');
    const quick = await host.call('tools.call', { serverId: 'slow-modern', name: 'quick', arguments: { text: 'late' } });
    assert.equal(quick.type === 'result' ? (quick.result.content as Array<{ text: string }>)[0]?.text : undefined, 'quick: late');
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
    assert.deepEqual(seenByProcess(log('ignore')), [['server/discover', 'initialize'], ['initialize'], ['initialize']], 'probed on the first connect only');
    assert.deepEqual(second.processes('ignore').map(requestsOf), [['initialize']]);
    const saved = JSON.parse(fs.readFileSync(path.join(data.dir, 'server-eras.json'), 'utf8')) as { schemaVersion: number; value: Record<string, string> };
    assert.deepEqual(saved, { schemaVersion: 1, value: { [ownerIdentity(config)]: 'legacy' } });
  });

  it('probes once a server remembered as legacy that now refuses initialize, and remembers it as modern', async () => {
    const dir = freshDir();
    new ServerEras({ dir, corruptDir: path.join(dir, 'corrupt'), factory: confStoreFactory }).set(ownerIdentity(modern), 'legacy');
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
