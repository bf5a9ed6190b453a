/**
 * A server of MCP 2025-11-25 (the SDK's 1.x `McpServer`, over stdio) whose tools need the person
 * to sign in to a third party first: until they have, a call is answered with the
 * URL-elicitation-required error (−32042) listing the link to open (client/elicitation, "URL
 * Elicitation Required Error").
 *
 * Usage: node --import tsx test/support/url-required-server.ts <state-file> [<offer-file> <received-file>]
 *
 * The sign-in lives in `<state-file>` (a JSON list of the accounts signed in), so that it outlives
 * a server process, as an account at a real third party would.
 *
 * `<offer-file>`, read once at start, says how this process offers `sync-files`, so that a test
 * can change it between connects as an updated server would: `optional` (the default, as below),
 * `required` (its `taskSupport: "required"`), `plain` (the server declares no `tasks` capability,
 * and `sync-files` is a plain tool answering "synced: a.txt, b.txt" after the same −32042), or
 * `gone` (no `tasks`, no `sync-files`). The params of every `tools/call` this process receives are
 * appended to `<received-file>`, one JSON line each.
 *
 * - `list-files` {}: plain; −32042 with one link (`files`) until signed in; then "files: a.txt, b.txt".
 * - `sync-files` {}: a task (`taskSupport: "optional"`); −32042 as `list-files`, then a task that
 *   completes at once with "synced: a.txt, b.txt".
 * - `merge` {}: −32042 with two links (`files` and `calendar`) until both are signed in; "merged".
 * - `always-links` {}: −32042 every time (a server that never lets go).
 * - `finish-sign-in` { account, notify }: what the third party's page does when the person has
 *   signed in: the account is recorded and, with `notify`, the server sends
 *   `notifications/elicitation/complete` for the elicitation it asked (its id: `<account>-link`).
 * - prompt `briefing`: −32042 as `list-files`, then a user message "Briefing from your files".
 */
import fs from 'node:fs';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { UrlElicitationRequiredError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const [stateFile, offerFile, receivedFile] = process.argv.slice(2);
if (!stateFile || (offerFile !== undefined && receivedFile === undefined))
  throw new Error('usage: url-required-server.ts <state-file> [<offer-file> <received-file>]');

const offers = ['optional', 'required', 'plain', 'gone'] as const;
const offer = offerFile === undefined ? 'optional' : fs.readFileSync(offerFile, 'utf8').trim();
if (!offers.includes(offer as (typeof offers)[number])) throw new Error(`unknown offer ${JSON.stringify(offer)}`);
const withTasks = offer === 'optional' || offer === 'required';

function signedIn(): string[] {
  try {
    return JSON.parse(fs.readFileSync(stateFile!, 'utf8')) as string[];
  } catch {
    return [];
  }
}

/** Throws −32042 for every account not signed in yet. */
function requireSignIn(...accounts: string[]): void {
  const missing = accounts.filter((account) => !signedIn().includes(account));
  if (missing.length === 0) return;
  throw new UrlElicitationRequiredError(
    missing.map((account) => ({
      mode: 'url' as const,
      elicitationId: `${account}-link`,
      url: `https://${account}.example.com/connect?elicitation=${account}-link`,
      message: `Sign in to Example ${account} so that this server can read it.`
    }))
  );
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: 'url-required-server', version: '1.0.0' },
  withTasks
    ? { capabilities: { tools: {}, prompts: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore }
    : { capabilities: { tools: {}, prompts: {} } }
);

server.registerTool('list-files', { inputSchema: {} }, () => {
  requireSignIn('files');
  return text('files: a.txt, b.txt');
});

server.registerTool('merge', { inputSchema: {} }, () => {
  requireSignIn('files', 'calendar');
  return text('merged');
});

server.registerTool('always-links', { inputSchema: {} }, () => {
  throw new UrlElicitationRequiredError([
    { mode: 'url', elicitationId: `again-${Date.now()}`, url: 'https://again.example.com/', message: 'Once more.' }
  ]);
});

if (offer === 'plain')
  server.registerTool('sync-files', { inputSchema: {} }, () => {
    requireSignIn('files');
    return text('synced: a.txt, b.txt');
  });
else if (withTasks)
  server.experimental.tasks.registerToolTask(
    'sync-files',
    { inputSchema: {}, execution: { taskSupport: offer === 'required' ? 'required' : 'optional' } },
    {
      createTask: async (_args, extra) => {
        requireSignIn('files');
        const task = await extra.taskStore.createTask({ ttl: 60_000 });
        await extra.taskStore.storeTaskResult(task.taskId, 'completed', text('synced: a.txt, b.txt'));
        return { task };
      },
      getTask: async (_args, extra) => await extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult
    }
  );

server.registerTool(
  'finish-sign-in',
  { inputSchema: { account: z.string(), notify: z.boolean() } },
  async ({ account, notify }) => {
    fs.writeFileSync(stateFile, JSON.stringify([...new Set([...signedIn(), account])]));
    if (notify) await server.server.createElicitationCompletionNotifier(`${account}-link`)();
    return text(`signed in to ${account}`);
  }
);

server.registerPrompt('briefing', {}, () => {
  requireSignIn('files');
  return { messages: [{ role: 'user', content: { type: 'text', text: 'Briefing from your files' } }] };
});

const transport = new StdioServerTransport();
await server.connect(transport);
// Its stdin closed, the client is done with it (MCP's stdio shutdown): gone at once, rather than
// kept up by the task store's expiry timers until the client's SIGTERM two seconds later.
process.stdin.once('end', () => taskStore.cleanup());
if (receivedFile !== undefined) {
  // Every tools/call as it arrived, before the SDK reads it.
  const receive = transport.onmessage!;
  transport.onmessage = (message) => {
    if ('method' in message && message.method === 'tools/call')
      fs.appendFileSync(receivedFile, `${JSON.stringify(message.params)}\n`);
    receive(message);
  };
}
