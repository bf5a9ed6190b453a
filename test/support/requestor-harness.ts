import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../../app/core/clock.js';
import { DocumentDir } from '../../app/store/document-dir.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import type { OutboundTasks } from '../../app/requestor/outbound-tasks.js';
import type { OutboundTaskDocument } from '../../app/requestor/outbound-task-store.js';
import type { JournalSync } from '../../app/store/journal.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';

/**
 * An outbound tasks' log in `temp` whose journal syncs are counted, and whose changes nobody
 * waits for wait an hour (so only a waited write commits within a test); `reload()` reads what
 * is on disk now, as a restart would.
 */
export function countingOutboundLog(temp: { dir: DocumentDir; root: string }) {
  let syncs = 0;
  const journalSync: JournalSync = (fd, callback) => {
    syncs++;
    fs.fdatasync(fd, callback);
  };
  const options = {
    dir: path.join(temp.dir.dir, 'log'),
    corruptDir: path.join(temp.root, 'corrupt'),
    factory: confStoreFactory,
    lazyMs: 3_600_000
  };
  return {
    log: new SegmentLog<OutboundTaskDocument>({ ...options, journalSync }),
    syncs: () => syncs,
    /** The records on disk now, read by a fresh log over a copy of the files. */
    reload: () => {
      const copy = path.join(temp.root, `copy-${syncs}-${Date.now()}`);
      fs.cpSync(options.dir, copy, { recursive: true });
      return new SegmentLog<OutboundTaskDocument>({ ...options, dir: copy }).load(
        (value) => value as OutboundTaskDocument
      ).records;
    }
  };
}

/** A fresh temp directory with a `DocumentDir` for outbound tasks. */
export function tempTaskDir(): { dir: DocumentDir; root: string; cleanup(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'requestor-'));
  const dir = new DocumentDir({
    dir: path.join(root, 'outbound-tasks'),
    corruptDir: path.join(root, 'corrupt'),
    factory: confStoreFactory
  });
  return { dir, root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** One message the client put on the wire, with the clock time it was sent at. */
export interface SentMessage {
  at: number;
  /** Position in the wire order shared with `recordResponses`. */
  seq: number;
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
}

let wireSeq = 0;

/** Records every message the client sends through `transport` (wraps its `send`). */
export function recordSends(transport: Transport, clock: Clock): SentMessage[] {
  const sent: SentMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const record: SentMessage = { at: clock.now(), seq: ++wireSeq };
    if ('id' in message) record.id = message.id;
    if ('method' in message) {
      record.method = message.method;
      if (message.params) record.params = message.params;
    }
    sent.push(record);
    return send(message, options);
  };
  return sent;
}

/** Records, after `connect`, the position in wire order at which each response reached the client, by request id. */
export function recordResponses(transport: Transport): Map<string | number, number> {
  const arrived = new Map<string | number, number>();
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (!('method' in message) && 'id' in message && message.id !== undefined) arrived.set(message.id, ++wireSeq);
    onmessage?.(message, extra);
  };
  return arrived;
}

/** Counts sent messages of one method. */
export function countSent(sent: readonly SentMessage[], method: string): number {
  return sent.filter((m) => m.method === method).length;
}

/** Connects a client to an SDK server over a linked in-memory pair, recording what the client sends. */
export async function connectInMemory(
  server: { connect(transport: Transport): Promise<void> },
  clock: Clock,
  capabilities: ConstructorParameters<typeof Client>[1] = {}
): Promise<{ client: Client; sent: SentMessage[] }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sent = recordSends(clientTransport, clock);
  await server.connect(serverTransport);
  const client = new Client({ name: 'taskdesk-test', version: '0.0.0' }, capabilities);
  await client.connect(clientTransport);
  return { client, sent };
}

/** Resolves with the task once `predicate` holds for it, checking now and on every change event. */
export function waitForTask(
  manager: OutboundTasks,
  outboundId: string,
  predicate: (task: OutboundTaskView) => boolean
): Promise<OutboundTaskView> {
  return new Promise((resolve) => {
    const now = manager.get(outboundId);
    if (now && predicate(now)) {
      resolve(now);
      return;
    }
    const off = manager.on((event) => {
      if (event.type === 'changed' && event.task.outboundId === outboundId && predicate(event.task)) {
        off();
        resolve(event.task);
      }
    });
  });
}

/** The text of the first text block of a stored `CallToolResult`. */
export function resultText(task: OutboundTaskView): string | undefined {
  if (task.outcome?.type !== 'result') return undefined;
  const content = task.outcome.result.content as Array<{ type: string; text?: string }> | undefined;
  return content?.find((c) => c.type === 'text')?.text;
}
