import zlib from 'node:zlib';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ServerCapabilities,
  type Task
} from '@modelcontextprotocol/sdk/types.js';
import type { CreateTaskRequestHandlerExtra } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Clock } from '../../app/core/clock.js';
import type { PeerServer } from './host-fixture.js';
import { ClockedTaskStore } from './requestor-task-store.js';

/** What the task tool server declares and how it behaves. */
export interface TaskToolServerOptions {
  clock: Clock;
  /** Shared with other server instances to outlive sessions; a new one when absent. */
  store?: ClockedTaskStore;
  /** `pollInterval` of new tasks; undefined omits it. Ignored when `store` is given. */
  pollInterval?: number | undefined;
  /** Declare `tasks.cancel` (default true). */
  cancel?: boolean;
  /** Declare `tasks.list` (default true). */
  list?: boolean;
  /** Send `notifications/tasks/status` on completion (default false: the requestor must not rely on them). */
  statusNotifications?: boolean;
  /** ttl used when the requestor asks for none. */
  defaultTtl?: number | null;
  /** Text of `_meta["io.modelcontextprotocol/model-immediate-response"]` in every CreateTaskResult. */
  immediateResponse?: string;
}

/** What the `report` tool ends with: Markdown text, a PNG image, a resource link and structured content. */
export const REPORT_RESULT = {
  content: [
    {
      type: 'text',
      text: '## Weekly report\n\nSales **rose** by 5%; see [the details](https://example.com/details).\n\n<b>raw</b>'
    },
    { type: 'image', mimeType: 'image/png', data: gradientPng(48) },
    { type: 'resource_link', uri: 'https://example.com/report.csv', name: 'report.csv' }
  ],
  structuredContent: { growthPercent: 5, region: 'north' }
} satisfies CallToolResult;

/** A `size`×`size` PNG (a colour gradient) as base64: an image a browser decodes and shows. */
export function gradientPng(size: number): string {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++)
      row.set([Math.round((255 * x) / size), Math.round((255 * y) / size), 200], 1 + x * 3);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0))
  ]).toString('base64');
}

const WorkArgs = {
  durationMs: z.number().int().min(0).describe('How long the work runs, on the server clock'),
  label: z.string().optional(),
  progressSteps: z.number().int().min(0).optional()
};

/**
 * An SDK `McpServer` with task tools whose work runs on an injected clock.
 *
 * Tools: `work-required`, `work-optional` (complete after `durationMs`, optionally sending
 * progress for the call's token along the way), `work-forbidden` (plain), `fail-tool`
 * (fails with a `CallToolResult` with `isError`), `fail-rpc` (fails with a JSON-RPC error),
 * `slow` (runs until done or cancelled), `report` (ends with {@link REPORT_RESULT}).
 */
export function createTaskToolServer(options: TaskToolServerOptions): { server: McpServer; store: ClockedTaskStore } {
  const clock = options.clock;
  const store = options.store ?? new ClockedTaskStore({ clock, pollInterval: options.pollInterval });
  const tasks: NonNullable<ServerCapabilities['tasks']> = { requests: { tools: { call: {} } } };
  if (options.cancel ?? true) tasks.cancel = {};
  if (options.list ?? true) tasks.list = {};
  const server = new McpServer(
    { name: 'task-tool-server', version: '1.0.0' },
    { capabilities: { tools: {}, tasks }, taskStore: store }
  );

  const notifyStatus = async (taskId: string): Promise<void> => {
    if (!options.statusNotifications) return;
    const task = await store.getTask(taskId);
    if (task)
      await server.server.notification({ method: 'notifications/tasks/status', params: task }).catch(() => undefined);
  };

  const create = async (
    extra: CreateTaskRequestHandlerExtra
  ): Promise<{ task: Task; _meta?: Record<string, unknown> }> => {
    const ttl = extra.taskRequestedTtl ?? options.defaultTtl ?? null;
    const task = await extra.taskStore.createTask({ ttl });
    return options.immediateResponse === undefined
      ? { task }
      : { task, _meta: { 'io.modelcontextprotocol/model-immediate-response': options.immediateResponse } };
  };

  const finishLater = (taskId: string, durationMs: number, finish: () => Promise<void>): void => {
    clock.setTimeout(() => {
      // A cancelled (or forgotten) task keeps its state; the late result is dropped, as the spec asks.
      if (store.statusOf(taskId) !== 'working' && store.statusOf(taskId) !== 'input_required') return;
      void finish()
        .then(() => notifyStatus(taskId))
        .catch(() => undefined);
    }, durationMs);
  };

  const workHandler = {
    createTask: async (
      args: { durationMs: number; label?: string | undefined; progressSteps?: number | undefined },
      extra: CreateTaskRequestHandlerExtra
    ) => {
      const created = await create(extra);
      const taskId = created.task.taskId;
      const token = extra._meta?.progressToken;
      const steps = args.progressSteps ?? 0;
      if (token !== undefined) {
        for (let i = 1; i <= steps; i++) {
          clock.setTimeout(
            () => {
              // Not `extra.sendNotification`: that one is tied to the tools/call request, whose
              // Streamable HTTP stream closed with the CreateTaskResult. The token stays valid for
              // the task's life (2025-11-25 tasks, "Task Progress Notifications"), so the progress
              // goes on the session's own stream (the client's GET), as a server over HTTP must.
              void server.server
                .notification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress: i, total: steps, message: `step ${i}` }
                })
                .catch(() => undefined);
            },
            (args.durationMs * i) / (steps + 1)
          );
        }
      }
      finishLater(taskId, args.durationMs, () =>
        store.storeTaskResult(taskId, 'completed', {
          content: [{ type: 'text', text: `done: ${args.label ?? ''}` }]
        } satisfies CallToolResult)
      );
      return created;
    },
    getTask: async (_args: unknown, extra: { taskId: string }) => (await store.getTask(extra.taskId))!,
    getTaskResult: async (_args: unknown, extra: { taskId: string }) =>
      (await store.getTaskResult(extra.taskId)) as CallToolResult
  };

  server.experimental.tasks.registerToolTask(
    'work-required',
    { inputSchema: WorkArgs, execution: { taskSupport: 'required' } },
    workHandler
  );
  server.experimental.tasks.registerToolTask(
    'work-optional',
    { inputSchema: WorkArgs, execution: { taskSupport: 'optional' } },
    workHandler
  );
  server.registerTool('work-forbidden', { inputSchema: { label: z.string().optional() } }, async (args) => ({
    content: [{ type: 'text', text: `plain: ${args.label ?? ''}` }]
  }));
  server.registerTool('not-a-task-tool', { inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'plain' }]
  }));

  server.experimental.tasks.registerToolTask(
    'fail-tool',
    { inputSchema: WorkArgs, execution: { taskSupport: 'required' } },
    {
      ...workHandler,
      createTask: async (args, extra) => {
        const created = await create(extra);
        finishLater(created.task.taskId, args.durationMs, () =>
          store.storeTaskResult(created.task.taskId, 'failed', {
            content: [{ type: 'text', text: 'disk full' }],
            isError: true
          } satisfies CallToolResult)
        );
        return created;
      }
    }
  );
  server.experimental.tasks.registerToolTask(
    'fail-rpc',
    { inputSchema: WorkArgs, execution: { taskSupport: 'required' } },
    {
      ...workHandler,
      createTask: async (args, extra) => {
        const created = await create(extra);
        finishLater(created.task.taskId, args.durationMs, async () =>
          store.failWithError(
            created.task.taskId,
            new McpError(-32050, 'Upstream quota exhausted', { retryAfterS: 60 }),
            'The upstream service refused the job'
          )
        );
        return created;
      }
    }
  );
  server.experimental.tasks.registerToolTask(
    'report',
    { inputSchema: WorkArgs, execution: { taskSupport: 'required' } },
    {
      ...workHandler,
      createTask: async (args, extra) => {
        const created = await create(extra);
        finishLater(created.task.taskId, args.durationMs, () =>
          store.storeTaskResult(created.task.taskId, 'completed', REPORT_RESULT)
        );
        return created;
      }
    }
  );
  server.experimental.tasks.registerToolTask(
    'slow',
    { inputSchema: WorkArgs, execution: { taskSupport: 'required' } },
    {
      ...workHandler,
      createTask: async (args, extra) => {
        const created = await create(extra);
        finishLater(created.task.taskId, args.durationMs, () =>
          store.storeTaskResult(created.task.taskId, 'completed', {
            content: [{ type: 'text', text: 'slow done' }]
          } satisfies CallToolResult)
        );
        return created;
      }
    }
  );
  return { server, store };
}

/**
 * {@link createTaskToolServer}'s server as a peer of the in-memory host fixture (`startHostWith`),
 * with its `McpServer`: what the host sends it is not recorded.
 */
export function createTaskToolPeer(options: TaskToolServerOptions): { mcp: McpServer; peer: PeerServer } {
  const { server: mcp } = createTaskToolServer(options);
  return { mcp, peer: { server: mcp.server, notifications: [], nextNotification: () => new Promise(() => undefined) } };
}

/** What a plain server saw in each `tools/call`, for asserting that no task was asked for. */
export interface PlainCallRecord {
  name: string;
  task: unknown;
}

/**
 * A low-level SDK `Server` that declares no `tasks` capability yet lists tools with
 * `execution.taskSupport` (a peer the requestor must still treat as task-less).
 */
export function createPlainToolServer(): { server: Server; calls: PlainCallRecord[] } {
  const calls: PlainCallRecord[] = [];
  const server = new Server({ name: 'plain-tool-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  const schema = { type: 'object' as const, properties: { label: { type: 'string' } } };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'work-required', inputSchema: schema, execution: { taskSupport: 'required' as const } },
      { name: 'work-optional', inputSchema: schema, execution: { taskSupport: 'optional' as const } },
      { name: 'work-forbidden', inputSchema: schema }
    ]
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    calls.push({ name: request.params.name, task: request.params.task });
    return { content: [{ type: 'text', text: `plain ${request.params.name}` }] };
  });
  return { server, calls };
}
