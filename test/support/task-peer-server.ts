/**
 * A real MCP server for integration tests, runnable over stdio (`node --import tsx task-peer-server.ts`)
 * or mounted on Streamable HTTP by `buildTaskPeer()`.
 *
 * Its tools make it a *requestor* of task-augmented requests to the client, the way a server
 * that delegates work to Taskdesk does: create the task, poll `tasks/get` at the suggested
 * interval, then fetch `tasks/result`.
 *
 * Flood mode (env `FLOOD_COUNT`, `FLOOD_CONCURRENCY`, `FLOOD_ACK_FILE`, `FLOOD_REPORT_FILE`) sends
 * task-augmented sampling requests as soon as the client is initialized, appends each acknowledged
 * task id to the ack file, and writes ack latencies to the report file: the crash test and the
 * receiver benchmark use it.
 */
import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateTaskResultSchema, GetTaskResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const Loose = z.looseObject({});

/** Builds the peer server. */
export function buildTaskPeer(): McpServer {
  const mcp = new McpServer({ name: 'task-peer', version: '1.0.0' }, { capabilities: { tools: {} } });

  /** Creates a task on the client, polls it to the end, and returns what happened. */
  async function runAsTask(
    method: 'sampling/createMessage' | 'elicitation/create',
    params: Record<string, unknown>,
    ttl: number | undefined
  ) {
    const created = await mcp.server.request(
      { method, params: { ...params, task: ttl === undefined ? {} : { ttl } } },
      CreateTaskResultSchema
    );
    const statuses: string[] = [created.task.status];
    let task: Task = created.task;
    while (task.status === 'working' || task.status === 'input_required') {
      await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollInterval ?? 100, 100)));
      task = await mcp.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema);
      if (statuses.at(-1) !== task.status) statuses.push(task.status);
    }
    try {
      const result = await mcp.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
      return { created: created.task, statuses, result };
    } catch (error) {
      return {
        created: created.task,
        statuses,
        error: { code: (error as { code?: number }).code, message: (error as Error).message }
      };
    }
  }

  const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });

  mcp.registerTool(
    'elicit-as-task',
    {
      description: 'Asks the client a question as a task',
      inputSchema: { message: z.string().default('Your name?'), ttl: z.number().optional() }
    },
    async ({ message, ttl }) =>
      text(
        await runAsTask(
          'elicitation/create',
          {
            mode: 'form',
            message,
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
          },
          ttl
        )
      )
  );
  mcp.registerTool(
    'sample-as-task',
    {
      description: 'Asks the client to sample as a task',
      inputSchema: { prompt: z.string().default('Say hi'), ttl: z.number().optional() }
    },
    async ({ prompt, ttl }) =>
      text(
        await runAsTask(
          'sampling/createMessage',
          { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 20 },
          ttl
        )
      )
  );
  return mcp;
}

/** Sends task-augmented sampling requests as fast as the client acknowledges them. */
async function flood(
  mcp: McpServer,
  options: { count: number; concurrency: number; ackFile?: string; reportFile?: string }
): Promise<void> {
  const latencies: number[] = [];
  let sent = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  const worker = async () => {
    while (sent < options.count) {
      sent++;
      const t0 = performance.now();
      const created = await mcp.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: `task ${sent}` } }],
            maxTokens: 5,
            task: { ttl: 3_600_000 }
          }
        },
        CreateTaskResultSchema
      );
      latencies.push(performance.now() - t0);
      if (options.ackFile) fs.appendFileSync(options.ackFile, `${created.task.taskId}\n`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  if (options.reportFile)
    fs.writeFileSync(
      options.reportFile,
      JSON.stringify({ latencies, elapsedMs: elapsed, peerCpuMs: (cpu.user + cpu.system) / 1000 })
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mcp = buildTaskPeer();
  const count = Number(process.env.FLOOD_COUNT ?? 0);
  if (count > 0) {
    mcp.server.oninitialized = () => {
      void flood(mcp, {
        count,
        concurrency: Number(process.env.FLOOD_CONCURRENCY ?? 8),
        ...(process.env.FLOOD_ACK_FILE && { ackFile: process.env.FLOOD_ACK_FILE }),
        ...(process.env.FLOOD_REPORT_FILE && { reportFile: process.env.FLOOD_REPORT_FILE })
      }).catch((error: unknown) => process.stderr.write(`flood stopped: ${String(error)}\n`));
    };
  }
  await mcp.connect(new StdioServerTransport());
}
