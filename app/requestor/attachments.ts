import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitationCompleteNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  TaskStatusNotificationSchema,
  ToolListChangedNotificationSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { HostError, JsonRpcCode } from '../core/errors.js';
import { MetaKey } from '../mcp/modern-protocol.js';
import type { ModernPeer } from './modern-task-follower.js';
import { LISTEN_TIMEOUT_MS, TaskStatusStream } from './task-status-stream.js';

/** Options of `attach`. */
export interface AttachOptions {
  /**
   * Register a `notifications/tasks/status` handler on the client (default true). The SDK
   * keeps one handler per method; pass false when the connection code owns that handler and
   * forwards to `onStatusNotification` instead.
   */
  statusNotifications?: boolean;
  /**
   * The server is of MCP 2026-07-28: tool calls, lists and tasks go through this peer (the
   * tasks extension) instead of the client's 2025-11-25 requests.
   */
  modern?: ModernPeer;
  /**
   * The server's process was started for this connection (stdio): a task created over an earlier
   * connection was created by another process, whose tasks this one knows only if it stores them.
   */
  startedAnew?: boolean;
}

/** A connected server as the requestor uses it. */
export interface Attachment {
  readonly serverId: string;
  /** Changes when the server is renamed while connected (see `AttachmentRegistry.rename`). */
  serverName: string;
  readonly client: Client;
  readonly statusNotifications: boolean;
  /** Set for a server of MCP 2026-07-28. */
  readonly modern: ModernPeer | undefined;
  /** Ends the `subscriptions/listen` stream a 2026-07-28 server tells of its changed lists on. */
  readonly listening?: AbortController;
  /** The stream a 2026-07-28 server that takes tasks tells of the tasks Taskdesk follows on (`notifications/tasks`). */
  readonly taskStream?: TaskStatusStream;
}

/** What an {@link AttachmentRegistry} tells its owner of; each is optional. */
export interface AttachmentListeners {
  /** The params of every status notification a handler it registered gets. */
  onStatus?(serverId: string, params: unknown): void;
  /** The params of every `notifications/tasks` a 2026-07-28 server sends (the task as `tasks/get` gives it). */
  onModernStatus?(serverId: string, params: unknown): void;
  /** The id of every URL elicitation a 2025-11-25 server says is done. */
  onElicitationComplete?(serverId: string, elicitationId: string): void;
  /** The server said its tools changed (`notifications/tools/list_changed`). */
  onToolsChanged?(attachment: Attachment): void;
  /**
   * The list read may be out of date though no change was told (a stream opened after it was
   * read, or ended by the server): read it again at its next use, telling nobody.
   */
  onToolsStale?(attachment: Attachment): void;
  /**
   * The server said its prompts or its resources changed (`notifications/prompts/list_changed`,
   * `notifications/resources/list_changed`): a list of them on show is read again.
   */
  onSourcesChanged?(attachment: Attachment): void;
}

/** The list-changed notifications of a server, each with the `subscriptions/listen` filter field that asks a 2026-07-28 server for it. */
const LIST_CHANGES = [
  { list: 'tools', field: 'toolsListChanged', schema: ToolListChangedNotificationSchema },
  { list: 'prompts', field: 'promptsListChanged', schema: PromptListChangedNotificationSchema },
  { list: 'resources', field: 'resourcesListChanged', schema: ResourceListChangedNotificationSchema }
] as const;

/**
 * How often a `subscriptions/listen` stream to a Streamable HTTP server is opened anew. Its
 * response is an SSE stream that may carry nothing for hours; Node's fetch gives up on a body
 * that sends nothing for 300 s, a proxy often sooner, and the SDK's transport then leaves the
 * request waiting (it resumes only a stream that sent an event id), so a change told afterwards
 * would be lost unnoticed. Opened again before that, the stream stays alive; a change told in
 * between is covered by the list's `ttlMs`.
 */
export const HTTP_LISTEN_RENEWAL_MS = 240_000;

/**
 * A 2026-07-28 server's acknowledgement of a `subscriptions/listen` stream: which stream it is is
 * told by `_meta`'s subscription id (the id of the stream's request); what it agreed to tell is
 * read for the task stream (its `taskIds`), and to tell the stream from a server that gives no id.
 */
const SubscriptionAcknowledgedSchema = z.object({
  method: z.literal('notifications/subscriptions/acknowledged'),
  params: z.optional(z.looseObject({ notifications: z.optional(z.looseObject({})), _meta: z.optional(z.unknown()) }))
});

/** The subscription id a notification is tagged with (MCP 2026-07-28: `_meta`), if a well-formed one. */
function subscriptionIdOf(meta: unknown): string | number | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const id: unknown = (meta as Record<string, unknown>)[MetaKey.subscriptionId];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Whether a subscription id a server sent names the request id `ours` (a number the SDK gave, or none). */
function sameId(told: string | number, ours: string | number | undefined): boolean {
  return ours !== undefined && String(told) === String(ours);
}

/** A 2026-07-28 server's `notifications/tasks` (the tasks extension): its params are read by the task's follower. */
const ModernTaskNotificationSchema = z.object({
  method: z.literal('notifications/tasks'),
  params: z.looseObject({})
});

/**
 * The servers the requestor may talk to now, one attachment each.
 *
 * Owns the `notifications/tasks/status`, `notifications/elicitation/complete` and list-changed
 * (tools, prompts, resources) handlers it registers on a legacy client, and takes them off again
 * when the server is detached. For a 2026-07-28 server that declared `listChanged` for any of
 * those lists, it opens the `subscriptions/listen` stream their notifications come on (that
 * revision sends them only to a client listening, and only those it asked for), and ends it when
 * the server is detached. For one that takes tool calls as tasks, it keeps a second stream, of
 * the tasks Taskdesk follows there (`notifications/tasks`, see `TaskStatusStream`).
 */
export class AttachmentRegistry {
  readonly #attachments = new Map<string, Attachment>();
  readonly #on: AttachmentListeners;

  constructor(listeners: AttachmentListeners = {}) {
    this.#on = listeners;
  }

  /** Records a server's attachment (the caller detached any earlier one first). */
  add(serverId: string, serverName: string, client: Client, options: AttachOptions): Attachment {
    const modern = options.modern;
    // A 2026-07-28 server's status notifications are another method, sent only on a task stream (below).
    const statusNotifications = modern === undefined && (options.statusNotifications ?? true);
    // The lists it tells of changes to: a legacy server may tell of any, unasked.
    const told = LIST_CHANGES.filter(({ list }) => !modern || modern.listChanged?.[list] === true);
    const listening = modern && told.length > 0 ? new AbortController() : undefined;
    const taskStream = modern?.acceptsTasks ? new TaskStatusStream(modern) : undefined;
    const attachment: Attachment = {
      serverId,
      serverName,
      client,
      statusNotifications,
      modern,
      ...(listening && { listening }),
      ...(taskStream && { taskStream })
    };
    this.#attachments.set(serverId, attachment);
    if (attachment.statusNotifications) {
      client.setNotificationHandler(TaskStatusNotificationSchema, (notification) =>
        this.#on.onStatus?.(serverId, notification.params)
      );
    }
    if (taskStream) {
      client.setNotificationHandler(ModernTaskNotificationSchema, (notification) =>
        this.#on.onModernStatus?.(serverId, notification.params)
      );
    }
    // MCP 2026-07-28 removed this notification: only a 2025-11-25 server sends it.
    if (!modern) {
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) =>
        this.#on.onElicitationComplete?.(serverId, notification.params.elicitationId)
      );
    }
    for (const { list, schema } of told)
      client.setNotificationHandler(
        schema,
        list === 'tools'
          ? // Its tools changed: the list read before is stale (a tool gone, one added, a schema
            // changed), for the Tools screen and for what the Assistant offers a model alike.
            () => this.#on.onToolsChanged?.(attachment)
          : () => this.#on.onSourcesChanged?.(attachment)
      );
    // A change between the tool list's first read and the stream's start was told to nobody: once
    // the stream is open (and each time it opens again), it is read again at its next use. Prompts
    // and resources are not kept (a list of them on show was read when it opened), but one that
    // changed while no stream was open (between a renewal's two streams) was told to nobody either:
    // when a stream opens again, a list of them on show is read again.
    let opened = 0;
    const toldSources = told.some(({ list }) => list !== 'tools');
    // The id of the list stream open now (its request's), when the peer tells it.
    let listStreamId: string | number | undefined;
    const listAcknowledged = () => {
      this.#toolsStale(attachment);
      if (++opened > 1 && toldSources) this.#on.onSourcesChanged?.(attachment);
    };
    if (listening || taskStream)
      client.setNotificationHandler(SubscriptionAcknowledgedSchema, (notification) => {
        const agreed = notification.params?.notifications;
        // Told by its id: the request's of the stream it acknowledges (MCP 2026-07-28). One that
        // names another stream (one renewed or replaced since) is of no stream open now.
        // Compared as text: a server that writes the id back as a string ("3" for 3) still names it.
        const id = subscriptionIdOf(notification.params?._meta);
        const taskStreamId = taskStream?.subscriptionId;
        if (id !== undefined && (listStreamId !== undefined || taskStreamId !== undefined)) {
          if (listening && sameId(id, listStreamId)) listAcknowledged();
          else if (taskStream && sameId(id, taskStreamId)) taskStream.acknowledged(agreed?.taskIds);
          return;
        }
        // A server that gives no id (or a peer that told no stream's): told by what it agreed to.
        // The task stream's names taskIds, or agreed to nothing (the list stream asks only for
        // lists the server declared): its openings say nothing of the lists.
        if (agreed !== undefined && (agreed.taskIds !== undefined || Object.keys(agreed).length === 0)) {
          taskStream?.acknowledged(agreed.taskIds);
          return;
        }
        if (listening) listAcknowledged();
      });
    if (modern && listening) {
      const filter = Object.fromEntries(told.map(({ field }) => [field, true] as const));
      this.#listen(attachment, modern, filter, listening.signal, (id) => (listStreamId = id));
    }
    return attachment;
  }

  /** The tool list read before may be out of date (see {@link AttachmentListeners.onToolsStale}): when the stream tells of tools. */
  #toolsStale(attachment: Attachment): void {
    if (attachment.modern?.listChanged?.tools === true) this.#on.onToolsStale?.(attachment);
  }

  /**
   * Opens the `subscriptions/listen` stream of a 2026-07-28 server, for the list changes in
   * `filter` only: its acknowledgement and notifications come as notifications (the handlers above); the
   * request itself stays open until the server ends it (a graceful end, answered), the stream is
   * cancelled (`signal`: the SDK sends `notifications/cancelled` while the connection is up), or
   * the connection goes (which ends it on either transport: the process or the SSE stream). A
   * server that refuses it is left to its tool list's freshness (`ttlMs`, see `ToolCache`).
   * `onOpened` gets each stream's request id as it is sent (what the server tags it with).
   */
  #listen(
    attachment: Attachment,
    modern: ModernPeer,
    filter: Record<string, true>,
    signal: AbortSignal,
    onOpened: (id: string | number) => void
  ): void {
    // One stream at a time: this one ends at the renewal (HTTP), and the next opens.
    const renewal = new AbortController();
    const renewAfter = modern.listenRenewalMs;
    const timer = renewAfter === undefined ? undefined : setTimeout(() => renewal.abort(), renewAfter);
    timer?.unref();
    const again = () => {
      clearTimeout(timer);
      if (!signal.aborted && this.#attachments.get(attachment.serverId) === attachment)
        this.#listen(attachment, modern, filter, signal, onOpened);
    };
    modern
      .request(
        'subscriptions/listen',
        { notifications: filter },
        {
          tasks: false,
          timeout: LISTEN_TIMEOUT_MS,
          signal: AbortSignal.any([signal, renewal.signal]),
          onRequestId: onOpened
        }
      )
      .then(
        // The server ended it (a graceful end): not opened again, and what it would have told
        // from now on is not heard: the list is read again at its next use.
        () => {
          clearTimeout(timer);
          if (!signal.aborted) this.#toolsStale(attachment);
        },
        (error: unknown) => {
          // Renewed, or open longer than the SDK waits for any answer: opened again while the
          // server stays. Refused, or the connection went: left to the list's freshness.
          const timedOut = (error as { code?: unknown } | undefined)?.code === -32001;
          if (renewal.signal.aborted || timedOut) again();
          else clearTimeout(timer);
        }
      );
  }

  /** Removes a server's attachment, if any, and returns it. */
  remove(serverId: string): Attachment | undefined {
    const attachment = this.#attachments.get(serverId);
    if (!attachment) return undefined;
    this.#attachments.delete(serverId);
    if (attachment.statusNotifications) attachment.client.removeNotificationHandler('notifications/tasks/status');
    if (!attachment.modern) attachment.client.removeNotificationHandler('notifications/elicitation/complete');
    // Every list's handler where any was set (removing one that was not does nothing); a modern
    // server that tells of no list change had none set on its client.
    if (!attachment.modern || attachment.listening)
      for (const { schema } of LIST_CHANGES) attachment.client.removeNotificationHandler(schema.shape.method.value);
    if (attachment.listening || attachment.taskStream)
      attachment.client.removeNotificationHandler('notifications/subscriptions/acknowledged');
    attachment.listening?.abort();
    if (attachment.taskStream) {
      attachment.client.removeNotificationHandler('notifications/tasks');
      attachment.taskStream.close();
    }
    return attachment;
  }

  /**
   * Names a connected server anew. The attachment itself stays, so that calls under way still
   * find it current; what is said of the server from now on uses the new name.
   */
  rename(serverId: string, serverName: string): void {
    const attachment = this.#attachments.get(serverId);
    if (attachment) attachment.serverName = serverName;
  }

  get(serverId: string): Attachment | undefined {
    return this.#attachments.get(serverId);
  }

  has(serverId: string): boolean {
    return this.#attachments.has(serverId);
  }

  /** Whether `attachment` is still the server's current one (it may have been replaced or removed meanwhile). */
  isCurrent(attachment: Attachment): boolean {
    return this.#attachments.get(attachment.serverId) === attachment;
  }

  /** The attachment of a server, or the `HostError` a caller gets when it is not connected. */
  require(serverId: string): Attachment {
    const attachment = this.#attachments.get(serverId);
    if (!attachment) throw new HostError(JsonRpcCode.InvalidRequest, `Server "${serverId}" is not connected.`);
    return attachment;
  }

  serverIds(): string[] {
    return [...this.#attachments.keys()];
  }
}

/** Whether the server takes tool calls as tasks: `tasks.requests.tools.call` (2025-11-25), the tasks extension (2026-07-28). */
export function acceptsTaskCalls(attachment: Attachment): boolean {
  if (attachment.modern) return attachment.modern.acceptsTasks;
  return attachment.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}
