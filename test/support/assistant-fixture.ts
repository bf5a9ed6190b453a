import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHost, type Host } from '../../app/host/host.js';
import type { Conversation } from '../../app/contract/assistant.js';
import type { JournalSync } from '../../app/store/journal.js';
import { FakeOpenAIServer } from './fake-openai-server.js';
import { peerServer, tempDir, type PeerServer } from './host-fixture.js';

/** Resolves with the conversation once `predicate` holds for it (now, or at a later `assistant.changed`). */
export function settled(
  host: Host,
  conversationId: string,
  predicate: (c: Conversation) => boolean
): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const off = host.on('assistant.changed', (event) => {
      if (event.conversationId === conversationId && event.conversation && predicate(event.conversation)) {
        off();
        resolve(event.conversation);
      }
    });
    host.call('assistant.get', { conversationId }).then((now) => {
      if (predicate(now)) {
        off();
        resolve(now);
      }
    }, reject);
  });
}

/** The conversation is idle and its last message is the model's answer. */
export const answered = (c: Conversation): boolean => c.status === 'idle' && c.messages.at(-1)?.role === 'assistant';

/** An in-memory MCP server named `name` whose one tool, `echo`, answers "Echo: <message>". */
export function echoServer(name = 'tools'): PeerServer {
  const mcp = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }]
  }));
  return { ...peerServer(name), server: mcp.server };
}

/** Saves the fake LLM server as a provider and returns its id. */
export async function saveFakeProvider(host: Host, baseURL: string, id = 'fake'): Promise<string> {
  await host.call('providers.save', { id, name: 'Fake LLM', baseURL, models: [{ name: 'fake-small' }] });
  return id;
}

/**
 * Saves "Broken local" (id `broken`, model `gpt-test`) at port 9 of loopback, where nothing
 * listens: every call of it fails as an unreachable provider's does.
 */
export async function saveUnreachableProvider(host: Host): Promise<string> {
  await host.call('providers.save', {
    id: 'broken',
    name: 'Broken local',
    baseURL: 'http://127.0.0.1:9/v1',
    models: [{ name: 'gpt-test' }],
    defaultModel: 'gpt-test'
  });
  return 'broken';
}

/**
 * A conversations' journal sync on a disk that can be made full: while `full` is set, every
 * fdatasync fails with ENOSPC (as a full disk's does); otherwise it is the real one.
 */
export function fillableDisk(): { full: boolean; sync: JournalSync } {
  const disk = {
    full: false,
    sync: ((fd, callback) => {
      if (!disk.full) return fs.fdatasync(fd, callback);
      const error: NodeJS.ErrnoException = new Error('ENOSPC: no space left on device, fdatasync');
      error.code = 'ENOSPC';
      queueMicrotask(() => callback(error));
    }) as JournalSync
  };
  return disk;
}

/**
 * A host on a fresh data directory whose conversations' disk can be made full ({@link fillableDisk}),
 * with the fake LLM server saved as its provider `fake`; `dispose` closes and removes everything.
 */
export async function startHostOnFillableDisk(): Promise<{
  host: Host;
  llm: FakeOpenAIServer;
  disk: ReturnType<typeof fillableDisk>;
  dispose: () => Promise<void>;
}> {
  const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
  const data = tempDir();
  const disk = fillableDisk();
  const host = createHost({ dataDir: data.dir, autoConnect: false, conversationJournalSync: disk.sync });
  const dispose = async () => {
    await host.close();
    await llm.close();
    data.remove();
  };
  try {
    await saveFakeProvider(host, llm.baseURL);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { host, llm, disk, dispose };
}
