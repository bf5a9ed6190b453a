import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { AuditLog, AuditSink } from '../audit/audit-log.js';
import type { HostMethod, HostMethods, HostResult, InboundTask, InboxItem, ServerView } from '../contract/host-api.js';
import type { ServerSettings } from '../contract/server-settings.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import { auditArguments } from '../assistant/audit-arguments.js';
import { thrownCallDetail } from '../audit/tool-call-entry.js';
import type { Inbox } from '../inbox/inbox.js';
import type { InboxDrafts } from '../inbox/inbox-drafts.js';
import { withdrawQuestionsOfForgottenTask } from './ended-task-questions.js';
import { ownerIdentity, type ServerConfig } from '../mcp/server-config.js';
import type { ClosedBy } from '../mcp/server-connection.js';
import type { TaskReceiver } from '../receiver/task-receiver.js';
import type { OutboundTasks } from '../requestor/outbound-tasks.js';
import { inboundView } from './inbound-view.js';
import { inboundSummary } from './task-summary.js';
import type { SamplingSetup } from './sampling-setup.js';
import type { ServerEras } from './server-eras.js';
import type { DisconnectedServers } from './disconnected-servers.js';
import type { ServerRegistry } from './server-registry.js';
import type { Assistant } from '../assistant/assistant.js';
import { InvalidHistoryCursorError, type TaskHistory } from '../history/task-history.js';
import type { ServerSettingsStore } from './server-settings.js';
import { copyKey, findImports, planImport, type ExistingServers } from '../servers-import/server-import.js';
import type { ImportPlaces } from '../servers-import/known-places.js';
import type { ServerSignIn } from './server-sign-in.js';

/** A method's params once the contract's schema has parsed them (defaults filled in). */
export type HostParsedParams<M extends HostMethod> = z.output<(typeof HostMethods)[M]['params']>;

/** One handler per host API method: the compiler refuses a table that misses one or adds one. */
export type HostMethodTable = {
  [M in HostMethod]: (params: HostParsedParams<M>) => Promise<HostResult<M>> | HostResult<M>;
};

/** What the handlers act on: the host's parts, some of them private to `Host`. */
export interface HostMethodParts {
  readonly audit: AuditLog;
  readonly inbox: Inbox;
  /** What was typed into the Inbox's task questions, kept across restarts. */
  readonly drafts: InboxDrafts;
  /** An item as the UI gets it: with its kept draft, if any. */
  withDraft(item: InboxItem): InboxItem;
  readonly receiver: TaskReceiver;
  readonly requestor: OutboundTasks;
  readonly sampling: SamplingSetup;
  readonly registry: ServerRegistry;
  readonly servers: ServerSettingsStore;
  readonly importPlaces: ImportPlaces;
  /** What a server's latest process wrote to stderr, redacted. */
  stderr(serverId: string): { text: string; truncated: boolean };
  readonly eras: ServerEras;
  /** The servers the person disconnected, not connected at start (a removed one is forgotten). */
  readonly disconnected: DisconnectedServers;
  readonly history: TaskHistory;
  readonly assistant: Assistant;
  readonly signIn: ServerSignIn;
  /** Forgets a removed server's OAuth sign-in and registration. */
  forgetAuth(serverId: string): Promise<void>;
  connect(serverId: string): Promise<ServerView>;
  /** Disconnects a server the person asked to disconnect: its closed state says so ("Disconnected by you"). */
  disconnect(serverId: string): Promise<ServerView>;
  /**
   * Closes a server's connection, if it has one, and forgets it; `by` is who asked, as its closed
   * state says it (Taskdesk's when absent: a reconnect with changed settings).
   */
  dropConnection(serverId: string, by?: ClosedBy): Promise<void>;
  /**
   * Gives a server's connection its saved settings in place when they reach the server as it
   * does (see `connectionKey`): true when it did, false when there is none or it must reconnect.
   */
  keepConnection(serverId: string): Promise<boolean>;
  /** Tells a connected server its roots changed. */
  rootsChanged(serverId: string): Promise<void>;
  serverView(config: ServerConfig): ServerView;
}

const OK = { ok: true } as const;

/** Why a removed server's unfinished tasks ended, as the Tasks screen says it. */
function removedTaskReason(server: ServerConfig): string {
  return server.transport.type === 'stdio'
    ? `You removed ${server.name}: its process, which ran this task, was stopped.`
    : `You removed ${server.name}: Taskdesk no longer has its settings, so it cannot ask about this task again.`;
}

/** The requestor's multi round-trip requests (always configured by the host). */
function exchangesOf(parts: HostMethodParts): NonNullable<OutboundTasks['exchanges']> {
  const exchanges = parts.requestor.exchanges;
  if (!exchanges) throw new HostError(JsonRpcCode.MethodNotFound, 'Multi round-trip requests are not enabled.');
  return exchanges;
}

/** A folder a server may see as a root: it must exist and be a directory (a clear error otherwise). */
function assertFolder(folder: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(folder);
  } catch {
    throw new HostError(JsonRpcCode.InvalidParams, `The folder ${folder} does not exist.`, { folder });
  }
  if (!stat.isDirectory()) throw new HostError(JsonRpcCode.InvalidParams, `${folder} is not a folder.`, { folder });
}

/**
 * The host API's implementation, method by method, over already validated params.
 *
 * Handlers read `parts` only when called, so building the table has no effects.
 */
export function hostMethods(parts: HostMethodParts): HostMethodTable {
  /** The `tools.call` calls running with a callId, and whether their Cancel was recorded. */
  const auditedCalls = new Map<string, { cancelAudited: boolean }>();
  return {
    'servers.list': () => parts.registry.list().map((config) => parts.serverView(config)),
    'servers.add': async (config) => {
      const saved = await parts.servers.add(config);
      recordServerAdded(parts.audit, saved, 'person');
      return parts.serverView(saved);
    },
    'servers.remove': async ({ serverId }) => {
      const removed = parts.registry.get(serverId);
      // Refused before anything changes: it was disconnected, then the remove failed.
      if (removed && !parts.registry.isSaved(serverId))
        throw new HostError(
          JsonRpcCode.InvalidRequest,
          `${removed.name} is given by Taskdesk's configuration, not saved from the Desk: remove it where Taskdesk is configured.`
        );
      // The identity the era was remembered by holds the secrets' values (an Authorization header).
      const identity = removed && ownerIdentity(await parts.servers.resolved(removed).catch(() => removed));
      // Removing it is the person's act: its connection's close says so ("Disconnected by you").
      await parts.dropConnection(serverId, 'person');
      await parts.servers.remove(serverId);
      // Its process is stopped, or its settings (an HTTP server's URL) forgotten: its tasks can never be asked about again.
      if (removed) parts.requestor.serverRemoved(serverId, removedTaskReason(removed));
      parts.sampling.forgetServer(serverId);
      await parts.forgetAuth(serverId);
      if (identity) parts.eras.forget(identity);
      // A server added again under its id connects at start as its own setting says.
      parts.disconnected.forget(serverId);
      if (removed) parts.audit.record({ type: 'server.removed', serverId, serverName: removed.name });
      return OK;
    },
    'servers.get': ({ serverId }) => parts.servers.get(serverId),
    'servers.update': async ({ serverId, settings }) => {
      const config = parts.registry.get(serverId);
      const status = config && parts.serverView(config).state.status;
      const was = config && parts.servers.get(serverId);
      await parts.servers.update(serverId, settings);
      const now = parts.servers.get(serverId);
      // Field names only: the settings hold commands, URLs and (by name) secrets. The name is none
      // of those, and a renamed server's entries are found by what it was called too.
      const changed = changedSettings(was, now);
      parts.audit.record({
        type: 'server.updated',
        serverId,
        serverName: now.name,
        detail: { changed, ...(was && changed.includes('name') && { previousName: was.name }) }
      });
      // A sign-in belongs to the server it was made with: tokens for the old URL never go to a new one.
      const before = config?.transport;
      const after = parts.registry.get(serverId)?.transport;
      if (before?.type === 'http' && (after?.type !== 'http' || after.url !== before.url))
        await parts.forgetAuth(serverId);
      // Only a change in how it is reached restarts it: a new name (or Connect at start) leaves the
      // connection, its process and its running calls as they are.
      if (await parts.keepConnection(serverId)) return { settings: parts.servers.get(serverId), reconnects: false };
      // Reconnects with the new settings when it was up or trying (a failed one may be fixed now).
      await parts.dropConnection(serverId);
      const reconnects = status === 'ready' || status === 'connecting' || status === 'failed';
      if (reconnects) void parts.connect(serverId).catch(() => undefined);
      return { settings: parts.servers.get(serverId), reconnects };
    },
    'servers.stderr': ({ serverId }) => {
      if (!parts.registry.get(serverId)) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
      return parts.stderr(serverId);
    },
    'servers.importFind': async ({ projectDirs, file, text }) => ({
      sources: await findImports(parts.importPlaces, existingServers(parts.registry), {
        ...(projectDirs && { projectDirs }),
        ...(file && { file }),
        ...(text !== undefined && { text })
      })
    }),
    'servers.importAdd': async (request) => {
      const plan = await planImport(parts.importPlaces, existingServers(parts.registry), request);
      const added: HostResult<'servers.importAdd'>['added'] = [];
      const { origin } = request;
      const from =
        'path' in origin ? origin.path : origin.name !== undefined ? `chosen file ${origin.name}` : 'pasted text';
      for (const { key, config } of plan.add) {
        const saved = await parts.servers.add(config);
        const switchedOff = request.autoConnect && config.autoConnect !== true;
        added.push({
          key,
          id: saved.id,
          name: saved.name,
          autoConnect: config.autoConnect === true,
          ...(switchedOff && { switchedOff: true as const })
        });
        parts.audit.record({
          type: 'server.imported',
          serverId: saved.id,
          serverName: saved.name,
          detail: { key, from, transport: saved.transport.type }
        });
      }
      // `planImport` leaves off (autoConnect false) a server its app has switched off, whatever was asked.
      for (const { id, autoConnect } of added) if (autoConnect) void parts.connect(id).catch(() => undefined);
      return { added, skipped: plan.skipped };
    },
    'servers.connect': ({ serverId }) => {
      personAsked(parts, 'server.connect-asked', serverId);
      return parts.connect(serverId);
    },
    'exchanges.list': () => parts.requestor.exchanges?.list() ?? [],
    'exchanges.cancel': ({ exchangeId }) => exchangesOf(parts).cancel(exchangeId),
    'exchanges.continue': ({ exchangeId }) => exchangesOf(parts).continue(exchangeId),
    'exchanges.forget': ({ exchangeId }) => {
      exchangesOf(parts).forget(exchangeId);
      return OK;
    },
    'prompts.get': ({ serverId, name, arguments: args }) => parts.requestor.getPrompt(serverId, name, args),
    'resources.read': ({ serverId, uri }) => parts.requestor.readResource(serverId, uri),
    'roots.get': ({ serverId }) => {
      const config = parts.registry.get(serverId);
      if (!config) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
      return { folders: config.roots ?? [] };
    },
    'roots.set': async ({ serverId, folders }) => {
      const unique = [...new Set(folders.map((folder) => path.resolve(folder)))];
      for (const folder of unique) assertFolder(folder);
      const config = parts.registry.setRoots(serverId, unique);
      await parts.rootsChanged(serverId);
      return { folders: config.roots ?? [] };
    },
    'servers.disconnect': ({ serverId }) => {
      personAsked(parts, 'server.disconnect-asked', serverId);
      return parts.disconnect(serverId);
    },
    'tasks.list': ({ serverId }) => {
      // Summaries of the stored versions, no copies: a server may store megabytes per task.
      const list: InboundTask[] = [];
      for (const record of parts.receiver.peekRecords())
        if (!serverId || record.owner.serverId === serverId) list.push(inboundSummary(record));
      return list;
    },
    'tasks.get': ({ taskId }) => {
      const record = parts.receiver.record(taskId);
      if (!record) throw new HostError(JsonRpcCode.InvalidParams, `Unknown task ${taskId}`);
      return inboundView(record);
    },
    'tasks.cancel': ({ taskId }) => parts.receiver.cancelById(taskId),
    'inbox.list': () => parts.inbox.list().map((item) => parts.withDraft(item)),
    'inbox.answer': ({ id, answer }) => {
      parts.inbox.answer(id, answer);
      return OK;
    },
    'inbox.hold': ({ id, held }) => {
      parts.inbox.hold(id, held);
      return OK;
    },
    // Only a task's question that waits: an ordinary request does not come back after a restart,
    // and a late write of a card just answered must not bring back a draft its answer dropped.
    'inbox.keepDraft': async ({ id, values }) => ({
      kept:
        parts.inbox.some((item) => item.id === id && item.taskId !== undefined) && (await parts.drafts.keep(id, values))
    }),
    'tools.list': ({ serverId, refresh }) => parts.requestor.listTools(serverId, { refresh: refresh === true }),
    'tools.call': async ({ serverId, name, arguments: args, asTask, ttlMs, callId: given }) => {
      // Every call has an id (the Desk gives one; one is made here for a caller that gave none),
      // so that a Cancel `tools.cancelCall` records ends the call in the log once, whoever made it.
      const callId = given ?? `call-${randomUUID()}`;
      // A second call under the id of one still running is refused before anything is recorded of it.
      if (auditedCalls.has(callId) || parts.requestor.plainCalls.isRunning(callId))
        throw new HostError(JsonRpcCode.InvalidParams, `A call ${callId} is already running`);
      const audited = (type: 'tool.called' | 'tool.call-ended', detail: Record<string, unknown>, taskId?: string) =>
        parts.audit.record({
          type,
          serverId,
          ...(parts.registry.get(serverId) && { serverName: parts.registry.get(serverId)!.name }),
          ...(taskId !== undefined && { taskId }),
          detail: { tool: name, ...detail, callId }
        });
      // Recorded as it is made, before what it causes (a server's question, a task), and how it
      // ended in an entry of its own: the log is append-only, dated as it is written.
      audited('tool.called', { arguments: auditArguments(args) });
      // A call that became a task ends as the task is created, before it is followed: the task's
      // end (`tool.task-ended`, which a task done in milliseconds reaches before the call returns) comes after.
      let ended = false;
      const taskCreated = (task: { outboundId: string; taskId: string }) => {
        ended = true;
        audited('tool.call-ended', { outcome: 'task', outboundId: task.outboundId }, task.taskId);
      };
      const running = { cancelAudited: false };
      auditedCalls.set(callId, running);
      try {
        const outcome = await parts.requestor.callTool(serverId, name, args, {
          ...(asTask !== undefined && { asTask }),
          ...(ttlMs !== undefined && { ttlMs }),
          callId,
          onTask: taskCreated
        });
        if (outcome.type === 'result')
          audited('tool.call-ended', { outcome: outcome.result.isError === true ? 'tool-error' : 'result' });
        else if (!ended) taskCreated(outcome.task);
        return outcome;
      } catch (error) {
        const detail = thrownCallDetail(error);
        // A Cancel `tools.cancelCall` recorded already ends the call: not said twice.
        if (!ended && !(running.cancelAudited && detail.cancelledBy === 'you')) audited('tool.call-ended', detail);
        throw error;
      } finally {
        if (auditedCalls.get(callId) === running) auditedCalls.delete(callId);
      }
    },
    'tools.runningCalls': () => parts.requestor.plainCalls.list(),
    'tools.cancelCall': ({ callId }) => {
      const call = parts.requestor.plainCalls.list().find((running) => running.callId === callId);
      if (!parts.requestor.plainCalls.cancel(callId))
        throw new HostError(JsonRpcCode.InvalidParams, `No running call ${callId}`);
      if (call) {
        parts.audit.record({
          type: 'tool.call-cancelled',
          serverId: call.serverId,
          serverName: call.serverName,
          detail: { tool: call.toolName, callId }
        });
        const audited = auditedCalls.get(callId);
        if (audited) audited.cancelAudited = true;
      }
      return OK;
    },
    'outbound.list': () => parts.requestor.list(),
    'outbound.get': ({ outboundId }) => {
      const task = parts.requestor.get(outboundId);
      if (!task) throw new HostError(JsonRpcCode.InvalidParams, `Unknown outbound task ${outboundId}`);
      return task;
    },
    'outbound.cancel': async ({ outboundId }) => {
      const view = await parts.requestor.cancel(outboundId);
      parts.audit.record({
        type: 'tool.task-cancelled',
        serverId: view.serverId,
        serverName: view.serverName,
        taskId: view.taskId,
        detail: { tool: view.toolName, outboundId, state: view.state }
      });
      return view;
    },
    'outbound.refresh': ({ outboundId }) => parts.requestor.refresh(outboundId),
    'outbound.forget': ({ outboundId }) => {
      const view = parts.requestor.get(outboundId);
      parts.requestor.forget(outboundId);
      if (view)
        parts.audit.record({
          type: 'tool.task-forgotten',
          serverId: view.serverId,
          serverName: view.serverName,
          taskId: view.taskId,
          detail: { tool: view.toolName, outboundId, state: view.state }
        });
      // What its server asked for it no longer waits in the Inbox (an ended task's went already).
      if (view) withdrawQuestionsOfForgottenTask(parts.inbox, view);
      return OK;
    },
    'outbound.serverTasks': ({ serverId, cursor }) => parts.requestor.listServerTasks(serverId, cursor),
    'providers.list': () => parts.sampling.views(),
    'providers.save': (config) => parts.sampling.saveProvider(config),
    'providers.remove': async ({ providerId }) => {
      await parts.sampling.removeProvider(providerId);
      return OK;
    },
    'providers.move': async ({ providerId, position }) => {
      await parts.sampling.moveProvider(providerId, position);
      return OK;
    },
    'providers.clearKey': ({ providerId }) => parts.sampling.clearKey(providerId),
    'providers.test': ({ providerId }) => parts.sampling.test(providerId),
    'providers.detect': () => parts.sampling.detect(),
    'sampling.getPolicy': ({ serverId }) => parts.sampling.policyFor(serverId),
    'sampling.setPolicy': ({ serverId, policy }) => parts.sampling.setPolicy(serverId, policy),
    'sampling.stop': ({ serverId, taskId, streamId }) => ({
      stopped: parts.sampling.stop(taskId !== undefined ? { serverId, taskId } : { serverId, streamId: streamId! })
    }),
    'audit.read': (options) => parts.audit.read(options),
    'audit.servers': () => parts.audit.servers(),
    'history.list': ({ filter, cursor, limit }) => {
      try {
        return parts.history.list(filter ?? {}, {
          ...(cursor !== undefined && { cursor }),
          ...(limit !== undefined && { limit })
        });
      } catch (error) {
        if (error instanceof InvalidHistoryCursorError) throw new HostError(JsonRpcCode.InvalidParams, error.message);
        throw error;
      }
    },
    'history.get': ({ id }) => {
      const entry = parts.history.get(id);
      if (!entry) throw new HostError(JsonRpcCode.InvalidParams, `No history entry ${id}`);
      return entry;
    },
    'history.export': ({ filter }) => {
      const jsonl = parts.history.exportJsonLines(filter ?? {});
      return { jsonl, count: jsonl === '' ? 0 : jsonl.split('\n').length - 1 };
    },
    'history.getRetention': () => parts.history.retention,
    'history.setRetention': (retention) => parts.history.setRetention(retention),
    'assistant.list': ({ query }) => parts.assistant.list(query),
    'assistant.get': ({ conversationId }) => parts.assistant.get(conversationId),
    'assistant.create': (settings) => parts.assistant.create(settings),
    'assistant.update': (changes) => parts.assistant.update(changes),
    'assistant.delete': async ({ conversationId }) => {
      await parts.assistant.delete(conversationId);
      return OK;
    },
    'assistant.send': ({ conversationId, text, sources }) => parts.assistant.send(conversationId, text, sources),
    'assistant.sources': ({ serverId }) => parts.assistant.sources(serverId),
    'assistant.stop': ({ conversationId }) => parts.assistant.stop(conversationId),
    'assistant.retry': ({ conversationId }) => parts.assistant.retry(conversationId),
    'assistant.resend': ({ conversationId, messageId, text }) =>
      parts.assistant.resend(conversationId, messageId, text),
    'assistant.decide': ({ conversationId, toolCallId, decision }) =>
      parts.assistant.decide(conversationId, toolCallId, decision),
    'assistant.getPolicy': ({ serverId }) => parts.assistant.policyFor(serverId),
    'assistant.setPolicy': ({ serverId, policy }) => parts.assistant.setPolicy(serverId, policy),
    'auth.signIn': ({ serverId }) => parts.signIn.signIn(serverId),
    'auth.signOut': ({ serverId }) => parts.signIn.signOut(serverId),
    'auth.setClient': async (client) => {
      await parts.signIn.setClient(client);
      return OK;
    },
    'auth.cancelSignIn': async ({ serverId }) => {
      await parts.signIn.cancelSignIn(serverId);
      return OK;
    },
    'auth.forgetClient': async ({ serverId }) => {
      await parts.signIn.forgetClient(serverId);
      return OK;
    }
  };
}

/** A server added, in the audit log: by the person (`servers.add`), or by Taskdesk itself (`by: 'taskdesk'`). */
export function recordServerAdded(audit: AuditSink, saved: ServerConfig, by: 'person' | 'taskdesk'): void {
  audit.record({
    type: 'server.added',
    serverId: saved.id,
    serverName: saved.name,
    detail: { transport: saved.transport.type, ...(by === 'taskdesk' && { by }) }
  });
}

/** The person asked to connect or disconnect a server: recorded before it is tried (its outcome follows as `server.state`). */
function personAsked(parts: HostMethodParts, type: string, serverId: string): void {
  const config = parts.registry.get(serverId);
  if (config) parts.audit.record({ type, serverId, serverName: config.name });
}

function existingServers(registry: ServerRegistry): ExistingServers {
  const list = registry.list();
  return {
    ids: new Set(list.map((config) => config.id)),
    names: new Set(list.map((config) => config.name.toLowerCase())),
    // A server with secrets in the key store is no one's copy: its values cannot be compared.
    targets: new Map(
      list
        .filter((config) => (config.secrets?.env.length ?? 0) + (config.secrets?.headers.length ?? 0) === 0)
        .map((config) => [copyKey(config.transport), config.name])
    )
  };
}

/**
 * The names of the settings an edit changed, a transport's one by one (`transport.url`,
 * `transport.env`) unless the transport itself changed kind: what the Audit log says the person
 * changed, without the values.
 */
function changedSettings(was: ServerSettings | undefined, now: ServerSettings): string[] {
  const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
  const changed: string[] = [];
  for (const key of Object.keys(now) as Array<keyof ServerSettings>) {
    if (!differs(was?.[key], now[key])) continue;
    if (key !== 'transport' || was?.transport.type !== now.transport.type) {
      changed.push(key);
      continue;
    }
    const before: Record<string, unknown> = was.transport;
    const after: Record<string, unknown> = now.transport;
    for (const field of new Set([...Object.keys(before), ...Object.keys(after)]))
      if (differs(before[field], after[field])) changed.push(`transport.${field}`);
  }
  return changed;
}
