import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelTaskRequestSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  RELATED_TASK_META_KEY,
  type ClientCapabilities
} from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionState } from '../contract/host-api.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import type { TaskReceiver } from '../receiver/task-receiver.js';
import type { TaskKind, TaskOwner, TaskView } from '../receiver/task-record.js';
import { ownerIdentity, type ServerConfig } from './server-config.js';


/** The capabilities Taskdesk declares to every server (MCP 2025-11-25). */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: { tools: {} },
  elicitation: { form: {}, url: {} },
  tasks: {
    list: {},
    cancel: {},
    requests: { sampling: { createMessage: {} }, elicitation: { create: {} } }
  }
};

/** Options for {@link ServerConnection}. */
export interface ServerConnectionOptions {
  config: ServerConfig;
  receiver: TaskReceiver;
  /** Builds the transport; tests pass one end of an in-memory pair. */
  transportFactory?: (config: ServerConfig) => Transport;
  /** How long initialize may take before the connection counts as failed. */
  connectTimeoutMs?: number;
  onState(state: ConnectionState): void;
  clientInfo?: { name: string; version: string };
}

/**
 * One MCP client session with one server, and the receiver's request handlers on it.
 *
 * The task handlers are Taskdesk's own rather than the SDK's built-in ones: those neither
 * notify on cancel nor abort work, and leak a listener per `tasks/result` poll.
 */
export class ServerConnection {
  readonly config: ServerConfig;
  readonly owner: TaskOwner;
  readonly client: Client;
  #state: ConnectionState = { status: 'idle' };
  readonly #options: ServerConnectionOptions;
  #stderr = '';
  #closing = false;

  constructor(options: ServerConnectionOptions) {
    this.#options = options;
    this.config = options.config;
    this.owner = { serverId: options.config.id, serverName: options.config.name, identity: ownerIdentity(options.config) };
    this.client = new Client(options.clientInfo ?? { name: 'taskdesk', version: '0.1.0' }, { capabilities: CLIENT_CAPABILITIES });
    this.#registerHandlers();
  }

  get state(): ConnectionState {
    return structuredClone(this.#state);
  }

  /** Whether the connection is initialized and open (no copy of the state, for hot paths). */
  get ready(): boolean {
    return this.#state.status === 'ready';
  }

  /** Connects and initializes. Never throws: failure is a state with a reason. */
  async connect(): Promise<ConnectionState> {
    this.#setState({ status: 'connecting' });
    let transport: Transport;
    try {
      transport = (this.#options.transportFactory ?? defaultTransport)(this.config);
    } catch (error) {
      this.#setState({ status: 'failed', reason: `Could not start the transport: ${toErrorData(error).message}` });
      return this.state;
    }
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-2000);
      });
    }
    this.client.onclose = () => {
      if (this.#state.status === 'ready' || this.#state.status === 'connecting') {
        const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
        this.#setState({
          status: this.#closing ? 'closed' : 'failed',
          reason: this.#closing ? 'Disconnected by Taskdesk' : `The server closed the connection${tail ? `: ${tail}` : ''}`
        });
      }
    };
    this.client.onerror = () => {
      // Transport errors surface as a close or a failed request; nothing to do here.
    };
    try {
      await this.client.connect(transport, { timeout: this.#options.connectTimeoutMs ?? 20_000 });
    } catch (error) {
      if (this.#closing) {
        // Disconnected while connecting: that is a close, not a failure.
        this.#setState({ status: 'closed', reason: 'Disconnected by Taskdesk' });
        return this.state;
      }
      const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
      this.#setState({
        status: 'failed',
        reason: `Could not connect: ${toErrorData(error).message}${tail ? ` (stderr: ${tail})` : ''}`
      });
      await this.client.close().catch(() => undefined);
      return this.state;
    }
    const version = this.client.getServerVersion();
    const capabilities = this.client.getServerCapabilities();
    this.#setState({
      status: 'ready',
      ...(version && { serverInfo: { name: version.name, version: version.version } }),
      ...(this.client.transport && 'protocolVersion' in this.client.transport && typeof this.client.transport.protocolVersion === 'string'
        ? { protocolVersion: this.client.transport.protocolVersion }
        : {}),
      ...(capabilities && { capabilities: capabilities as Record<string, unknown> })
    });
    return this.state;
  }

  /** Closes the session; work of tasks already created goes on and their results stay. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.client.close().catch(() => undefined);
    this.#setState({ status: 'closed', reason: 'Disconnected by Taskdesk' });
  }

  /** Sends `notifications/tasks/status` with the full task (no related-task metadata, per spec). */
  async notifyStatus(task: TaskView): Promise<void> {
    if (this.#state.status !== 'ready') return;
    await this.client.notification({ method: 'notifications/tasks/status', params: { ...task } }).catch(() => undefined);
  }

  /** Sends a progress notification; tagged with the task when it belongs to one. */
  async notifyProgress(taskId: string | undefined, progressToken: string | number, progress: number, total?: number, message?: string): Promise<void> {
    if (this.#state.status !== 'ready') return;
    await this.client
      .notification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
          ...(taskId !== undefined && { _meta: { [RELATED_TASK_META_KEY]: { taskId } } })
        }
      })
      .catch(() => undefined);
  }

  #setState(state: ConnectionState): void {
    this.#state = state;
    this.#options.onState(this.state);
  }

  #registerHandlers(): void {
    const receiver = this.#options.receiver;
    const owner = () => this.owner;
    const inbound = (kind: TaskKind) => async (request: { params: Record<string, unknown> }, extra: { signal: AbortSignal }) => {
      const params = request.params;
      const meta = params._meta as Record<string, unknown> | undefined;
      const progressToken = meta?.progressToken as string | number | undefined;
      const relatedTaskId = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
      const info = {
        ...(progressToken !== undefined && { progressToken }),
        ...(typeof relatedTaskId === 'string' && { relatedTaskId })
      };
      return rethrow(async () => {
        if (params.task !== undefined && params.task !== null) return receiver.create(owner(), kind, params, info);
        return receiver.runOrdinary(owner(), kind, params, { ...info, signal: extra.signal });
      });
    };
    this.client.setRequestHandler(CreateMessageRequestSchema, inbound('sampling') as never);
    this.client.setRequestHandler(ElicitRequestSchema, inbound('elicitation') as never);
    this.client.setRequestHandler(GetTaskRequestSchema, async (request) =>
      rethrow(async () => receiver.get(owner(), request.params.taskId))
    );
    this.client.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) =>
      rethrow(async () => {
        const taskId = request.params.taskId;
        const outcome = await receiver.result(owner(), taskId, extra.signal);
        if (outcome.type === 'error') throw new HostError(outcome.error.code, outcome.error.message, outcome.error.data);
        const result = outcome.result;
        const resultMeta = (result._meta as Record<string, unknown> | undefined) ?? {};
        return { ...result, _meta: { ...resultMeta, [RELATED_TASK_META_KEY]: { taskId } } };
      })
    );
    this.client.setRequestHandler(ListTasksRequestSchema, async (request) =>
      rethrow(async () => receiver.list(owner(), request.params?.cursor))
    );
    this.client.setRequestHandler(CancelTaskRequestSchema, async (request) =>
      rethrow(async () => receiver.cancel(owner(), request.params.taskId))
    );
  }
}

/**
 * Runs a handler body so that whatever it throws reaches the SDK as `{ code, message, data }`.
 *
 * A plain message (no "MCP error" prefix) goes on the wire; an ordinary request and the
 * `tasks/result` replay of the same failure therefore send the same error.
 */
async function rethrow<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof HostError) throw error;
    const data = toErrorData(error);
    throw new HostError(data.code, data.message, data.data);
  }
}

function defaultTransport(config: ServerConfig): Transport {
  const transport = config.transport;
  switch (transport.type) {
    case 'stdio':
      return new StdioClientTransport({
        command: transport.command,
        args: transport.args,
        env: { ...getDefaultEnvironment(), ...transport.env },
        ...(transport.cwd !== undefined && { cwd: transport.cwd }),
        stderr: 'pipe'
      });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(transport.url), {
        ...(transport.headers && { requestInit: { headers: transport.headers } })
      });
  }
}
