import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host, type HostConfig } from '../../app/host/host.js';
import type { HostEvent, HostEventPayload, ServerView } from '../../app/contract/host-api.js';

/** Every file under `dir` (a data directory), with its path. */
export function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Why a server's connect failed, as its state says; empty when it did not fail. */
export function reasonOf(view: ServerView): string {
  return view.state.status === 'failed' ? (view.state.reason ?? '') : '';
}

/** A fresh temp directory, removed by the returned function. */
export function tempDir(prefix = 'taskdesk-test-'): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** An SDK server as a peer: what it received (notifications) is recorded for assertions. */
export interface PeerServer {
  server: Server;
  notifications: JSONRPCMessage[];
  /** Resolves with the next notification whose method matches. */
  nextNotification(
    method: string,
    predicate?: (params: Record<string, unknown>) => boolean
  ): Promise<Record<string, unknown>>;
}

/** Creates an SDK `Server` that records the notifications it receives. */
export function peerServer(name = 'peer'): PeerServer {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: {} });
  const notifications: JSONRPCMessage[] = [];
  const waiters: Array<{
    method: string;
    predicate?: (params: Record<string, unknown>) => boolean;
    resolve: (p: Record<string, unknown>) => void;
  }> = [];
  server.fallbackNotificationHandler = async (notification) => {
    notifications.push(notification as JSONRPCMessage);
    const params = (notification.params ?? {}) as Record<string, unknown>;
    for (const waiter of [...waiters]) {
      if (waiter.method === notification.method && (!waiter.predicate || waiter.predicate(params))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params);
      }
    }
  };
  return {
    server,
    notifications,
    nextNotification: (method, predicate) =>
      new Promise((resolve) => waiters.push({ method, ...(predicate && { predicate }), resolve }))
  };
}

/** A host joined to in-memory SDK servers by id. */
export interface InMemoryHostFixture {
  host: Host;
  dir: string;
  /** Stops the host; keeps the data directory. */
  stop(): Promise<void>;
  /** Stops the host and removes the data directory. */
  dispose(): Promise<void>;
}

/**
 * Starts a host whose servers are in-memory SDK `Server`s (one linked transport pair each),
 * connects them all, and waits until every one is ready.
 */
export async function startHostWith(
  peers: Record<string, PeerServer>,
  options: Partial<HostConfig> & { dir?: string } = {}
): Promise<InMemoryHostFixture> {
  const temp = options.dir ? { dir: options.dir, remove: () => undefined } : tempDir();
  const transports = new Map<string, Transport>();
  const host = createHost({
    dataDir: temp.dir,
    autoConnect: false,
    servers: Object.keys(peers).map((id) => ({
      id,
      name: `Server ${id}`,
      transport: { type: 'stdio' as const, command: `in-memory-${id}` }
    })),
    transportFactory: (config) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      transports.set(config.id, serverSide);
      void peers[config.id]!.server.connect(serverSide);
      return clientSide;
    },
    ...options
  });
  for (const id of Object.keys(peers)) {
    const view = await host.connect(id);
    if (view.state.status !== 'ready') throw new Error(`Server ${id} did not connect: ${view.state.reason}`);
  }
  return {
    host,
    dir: temp.dir,
    stop: async () => {
      await host.close();
      await Promise.all(Object.values(peers).map((peer) => peer.server.close().catch(() => undefined)));
    },
    dispose: async () => {
      await host.close();
      await Promise.all(Object.values(peers).map((peer) => peer.server.close().catch(() => undefined)));
      temp.remove();
    }
  };
}

/** Resolves with the next host event of a kind that matches. */
export function nextEvent<E extends HostEvent>(
  host: Host,
  event: E,
  predicate: (payload: HostEventPayload<E>) => boolean = () => true
): Promise<HostEventPayload<E>> {
  return new Promise((resolve) => {
    const off = host.on(event, (payload) => {
      if (!predicate(payload)) return;
      off();
      resolve(payload);
    });
  });
}

/** Resolves once the host's Inbox holds `count` items (listening before looking: none is missed). */
export function inboxHolds(host: Host, count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (host.inbox.size < count) return;
      off();
      resolve();
    };
    const off = host.on('inbox.added', check);
    check();
  });
}
