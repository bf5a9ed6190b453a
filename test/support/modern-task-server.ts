/**
 * A server of MCP 2026-07-28 whose tool calls become tasks of the extension
 * `io.modelcontextprotocol/tasks` (SEP-2663), over stdio or Streamable HTTP, on the v2 server package.
 *
 * Usage: node --import tsx test/support/modern-task-server.ts '{"legacy":"reject"}'
 * (`legacy: "serve"` also serves 2025-era clients with `initialize`; `reject` is modern-only).
 * Imported, it only exports {@link buildModernTaskServer} and {@link serveModernHttp}.
 *
 * Task progress is driven by the client's own `tasks/get` calls, never by timers, so tests
 * need no waiting beyond events. Each tool returns a task only when the request's envelope
 * declares the extension, and a plain `CallToolResult` otherwise:
 *
 * - `echo` {text}: `working` on the first `tasks/get`, `completed` ("echo: <text>") on the next.
 * - `fail` {message}: `failed` on the first `tasks/get`, with the JSON-RPC error −32050 <message>.
 * - `ask-name` {}: `input_required` with an elicitation form (key `name-1`) until answered; the first
 *   `tasks/get` after the answer still lists the key (the acknowledgement is eventually consistent),
 *   then the task completes with "hello <name>" (or "no name (<action>)").
 * - `ask-model` {}: the same with a `sampling/createMessage` (key `draft-1`); completes with the reply.
 * - `wait` {}: `working` until `tasks/cancel`, then `cancelled` with a status message.
 * - `quick` {text}: always a plain result, even to a client declaring the extension.
 * - `stats` {}: a plain result whose text is JSON: `tasks/update` answers received per task and key.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpServer, ProtocolError, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveFetchHandler, type FetchHttpServer } from './fetch-http-server.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** One task and the script that moves it on each `tasks/get`. */
interface FixtureTask {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  /** Called on every `tasks/get` before answering. */
  step: (task: FixtureTask) => void;
  /** Called with each answer `tasks/update` brings for an outstanding key. */
  answer?: (task: FixtureTask, key: string, response: Record<string, unknown>) => void;
}

const tasks = new Map<string, FixtureTask>();
/** taskId → key → number of answers received. */
const updates: Record<string, Record<string, number>> = {};

function now(): string {
  return new Date().toISOString();
}

function set(task: FixtureTask, change: Partial<FixtureTask>): void {
  Object.assign(task, change, { lastUpdatedAt: now() });
}

function text(value: string): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: value }] };
}

/** The task as the wire shows it (status-specific fields only when they apply). */
function wire(task: FixtureTask): Record<string, unknown> {
  const { step: _step, answer: _answer, inputRequests, result, error, ...base } = task;
  return {
    ...base,
    ...(task.status === 'input_required' && { inputRequests }),
    ...(task.status === 'completed' && { result }),
    ...(task.status === 'failed' && { error })
  };
}

function wantsTasks(ctx: unknown): boolean {
  const envelope = (ctx as { mcpReq?: { envelope?: Record<string, unknown> } }).mcpReq?.envelope;
  const capabilities = envelope?.[CAPABILITIES_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS] !== undefined;
}

/** Creates a task and answers with its `CreateTaskResult`. */
function start(script: Pick<FixtureTask, 'step' | 'answer'>): Record<string, unknown> {
  const at = now();
  const task: FixtureTask = {
    taskId: randomUUID(),
    status: 'working',
    statusMessage: 'started',
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: 600_000,
    pollIntervalMs: 50,
    ...script
  };
  tasks.set(task.taskId, task);
  return { resultType: 'task', ...wire(task) };
}

/** A task that asks one question (`key`) and completes with `finish(answer)` once it is answered. */
function asking(
  key: string,
  request: { method: string; params: Record<string, unknown> },
  finish: (response: Record<string, unknown>) => string
) {
  let answer: Record<string, unknown> | undefined;
  let echoes = 0;
  return {
    step(task: FixtureTask) {
      if (answer === undefined) {
        if (task.status === 'working')
          set(task, {
            status: 'input_required',
            statusMessage: 'waiting for input',
            inputRequests: { [key]: request }
          });
        return;
      }
      // One more answer listing the key, as a server whose acknowledgement lags may send.
      if (echoes++ === 0) return;
      set(task, { status: 'completed', statusMessage: 'done', result: text(finish(answer)) });
    },
    answer(_task: FixtureTask, answered: string, response: Record<string, unknown>) {
      if (answered === key && answer === undefined) answer = response;
    }
  };
}

/** One server instance; all instances of a process share the tasks. */
export function buildModernTaskServer(): McpServer {
  const server = new McpServer(
    { name: 'modern-task-server', version: '1.0.0' },
    { capabilities: { tools: {}, extensions: { [TASKS]: {} } } }
  );

  server.registerTool(
    'echo',
    { description: 'Echoes, as a task', inputSchema: z.object({ text: z.string() }) },
    async ({ text: value }, ctx) => {
      if (!wantsTasks(ctx)) return text(`echo (plain): ${value}`);
      let polls = 0;
      return start({
        step: (task) =>
          void (
            polls++ > 0 && set(task, { status: 'completed', statusMessage: 'done', result: text(`echo: ${value}`) })
          )
      }) as never;
    }
  );

  server.registerTool(
    'fail',
    { description: 'Fails, as a task', inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      if (!wantsTasks(ctx)) throw new ProtocolError(-32050, message);
      return start({
        step: (task) => set(task, { status: 'failed', statusMessage: 'it broke', error: { code: -32050, message } })
      }) as never;
    }
  );

  server.registerTool(
    'ask-name',
    { description: 'Asks for a name, as a task', inputSchema: z.object({}) },
    async (_args, ctx) => {
      if (!wantsTasks(ctx)) return text('no name (no tasks)');
      const question = {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
        }
      };
      return start(
        asking('name-1', question, (r) =>
          r.action === 'accept' ? `hello ${(r.content as { name: string }).name}` : `no name (${String(r.action)})`
        )
      ) as never;
    }
  );

  server.registerTool(
    'ask-model',
    { description: 'Asks a model, as a task', inputSchema: z.object({}) },
    async (_args, ctx) => {
      if (!wantsTasks(ctx)) return text('no model (no tasks)');
      const question = {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Write one word.' } }], maxTokens: 20 }
      };
      return start(asking('draft-1', question, (r) => `model said: ${(r.content as { text: string }).text}`)) as never;
    }
  );

  server.registerTool(
    'wait',
    { description: 'Works until cancelled', inputSchema: z.object({}) },
    async (_args, ctx) => {
      if (!wantsTasks(ctx)) return text('nothing to wait for');
      return start({ step: () => undefined }) as never;
    }
  );

  server.registerTool(
    'quick',
    { description: 'Always answers at once', inputSchema: z.object({ text: z.string() }) },
    async ({ text: value }) => text(`quick: ${value}`)
  );

  server.registerTool('stats', { description: 'What tasks/update brought', inputSchema: z.object({}) }, async () =>
    text(JSON.stringify(updates))
  );

  const known = (taskId: string): FixtureTask => {
    const task = tasks.get(taskId);
    if (!task) throw new ProtocolError(-32602, `Unknown task ${taskId}`);
    return task;
  };
  server.server.setRequestHandler(
    'tasks/get',
    { params: z.looseObject({ taskId: z.string() }) },
    async ({ taskId }) => {
      const task = known(taskId);
      task.step(task);
      return wire(task);
    }
  );
  server.server.setRequestHandler(
    'tasks/update',
    { params: z.looseObject({ taskId: z.string() }) },
    async ({ taskId, ...rest }, ctx) => {
      const task = known(taskId);
      const lifted = (ctx as { mcpReq?: { inputResponses?: Record<string, unknown> } }).mcpReq?.inputResponses;
      const responses = (lifted ??
        (rest as { inputResponses?: Record<string, unknown> }).inputResponses ??
        {}) as Record<string, Record<string, unknown>>;
      for (const [key, response] of Object.entries(responses)) {
        const counts = (updates[taskId] ??= {});
        counts[key] = (counts[key] ?? 0) + 1;
        if (task.inputRequests?.[key] !== undefined) task.answer?.(task, key, response);
      }
      return {};
    }
  );
  server.server.setRequestHandler(
    'tasks/cancel',
    { params: z.looseObject({ taskId: z.string() }) },
    async ({ taskId }) => {
      const task = known(taskId);
      if (task.status === 'working' || task.status === 'input_required')
        set(task, { status: 'cancelled', statusMessage: 'cancelled at the client’s request' });
      return {};
    }
  );
  return server;
}

/**
 * The same tools over Streamable HTTP on 127.0.0.1: modern-only (`legacy: 'reject'`, 2025-era
 * requests are refused) or dual-era (`legacy: 'stateless'`). Every request is recorded, with its
 * headers as they arrived, so tests can check the wire.
 */
export async function serveModernHttp(options: { legacy?: 'reject' | 'stateless' } = {}): Promise<FetchHttpServer> {
  return serveFetchHandler(createMcpHandler(buildModernTaskServer, { legacy: options.legacy ?? 'reject' }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = JSON.parse(process.argv[2] ?? '{}') as { legacy?: 'serve' | 'reject' };
  serveStdio(buildModernTaskServer, { legacy: options.legacy ?? 'reject' });
}
