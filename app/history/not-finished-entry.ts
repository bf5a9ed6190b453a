import { createHash, randomUUID } from 'node:crypto';
import type { CallOrigin } from '../contract/plain-calls.js';
import type { HistoryEntry } from '../contract/history.js';
import type { AuditEntry } from '../contract/host-api.js';
import { STOPPED_WHILE_RUNNING } from '../requestor/plain-calls.js';
import { STOPPED_BEFORE_ANSWER } from '../receiver/task-receiver.js';
import { titleOfReceived, titleOfRequested } from './history-values.js';

/** What History says of a plain call open when Taskdesk stopped without closing. */
export const NOT_FINISHED_CALL = `Not finished: ${STOPPED_WHILE_RUNNING}`;
/** What History says of a plain question or model request open when Taskdesk stopped without closing. */
export const NOT_FINISHED_REQUEST = `Not finished: ${STOPPED_BEFORE_ANSWER}`;

/**
 * Plain work (a tool call without a task, a server's question or model request outside a task)
 * that a run of Taskdesk left open when it stopped without closing (SIGKILL, a crash, power
 * loss), as its record kept it: short (see `OpenWorkRecord`).
 */
export interface NotFinishedWork {
  kind: 'tool-call' | 'elicitation' | 'sampling';
  serverId: string;
  serverName: string;
  /** A call's tool. */
  toolName?: string;
  /** A call's id (`tools.call`'s `callId`), when the record kept it. */
  callId?: string;
  /** A call's arguments, when the record kept them (small ones: see `ARGUMENTS_BYTES`). */
  arguments?: Record<string, unknown>;
  /** Set when a call's arguments were too large for the record to keep. */
  argumentsTooLarge?: true;
  /** A request's question in a short line (its start), when it had one. */
  question?: string;
  relatedTaskId?: string;
  origin?: CallOrigin;
  startedAt: string;
  /** When that run was last seen running (its record or marker last written): about when it stopped. */
  lastSeenAt: string;
  /**
   * Names this work for good (its run's id and its id in that run's record): recorded again (a
   * crash after its entry was written but before its record was removed), it is the same entry.
   */
  key?: string;
}

/**
 * The History entry of plain work an unclean stop broke off: `failed` (it ended without its
 * outcome, as a call that ended while running is recorded), with "Not finished: …" in the
 * words a clean close uses (which records the same work as cancelled by Taskdesk). Its end is
 * when its run was last seen running, which is only about when it stopped.
 *
 * Its request holds what the record kept: a call's tool and its arguments when they were small,
 * else `argumentsNotKept`, why not in words (the History detail says "Its arguments were not
 * kept: …", where `{}` would read as a call without arguments); a request's question cut short.
 */
export function notFinishedEntry(work: NotFinishedWork): HistoryEntry {
  const { kind } = work;
  const call = kind === 'tool-call';
  const message = call ? NOT_FINISHED_CALL : NOT_FINISHED_REQUEST;
  const request = call ? callRequestOf(work) : requestOf(kind, work.question);
  return {
    id: notFinishedEntryId(work) ?? `${call ? 'call' : 'request'}:${randomUUID()}`,
    direction: call ? 'requested' : 'received',
    kind,
    serverId: work.serverId,
    serverName: work.serverName,
    ...(work.relatedTaskId !== undefined && { relatedTaskId: work.relatedTaskId }),
    title: call ? titleOfRequested(work.toolName ?? '?') : titleOfReceived(kind, request),
    status: 'failed',
    statusMessage: message,
    ...(work.origin && { origin: { ...work.origin } }),
    createdAt: work.startedAt,
    updatedAt: work.lastSeenAt,
    endedAt: work.lastSeenAt,
    timeline: [
      { at: work.startedAt, status: 'working', ...(!call && { label: 'Asked' }) },
      { at: work.lastSeenAt, status: 'failed', message }
    ],
    request
  };
}

/**
 * The audit entry of plain work an unclean stop broke off, written at the start that lists it in
 * History, as a clean close writes one for each call it ended (`tool.call-ended`) and each
 * question or model request it withdrew (`inbox.withdrawn`, the History entry's words its reason).
 */
export function notFinishedAudit(work: NotFinishedWork): Omit<AuditEntry, 'at'> {
  const subject = { serverId: work.serverId, serverName: work.serverName };
  const when = { startedAt: work.startedAt, lastSeenAt: work.lastSeenAt };
  if (work.kind === 'tool-call')
    return {
      ...subject,
      type: 'tool.call-ended',
      detail: {
        tool: work.toolName ?? '?',
        outcome: 'not-finished',
        ...(work.callId !== undefined && { callId: work.callId }),
        ...when
      }
    };
  return {
    ...subject,
    type: 'inbox.withdrawn',
    detail: {
      kind: work.kind,
      ...(work.question !== undefined && { question: work.question }),
      ...(work.relatedTaskId !== undefined && { relatedTaskId: work.relatedTaskId }),
      reason: NOT_FINISHED_REQUEST,
      ...when
    }
  };
}

/**
 * Why a call's arguments were not kept, in words that follow "Its arguments were not kept: "
 * (the size is the open-work record's `ARGUMENTS_BYTES`).
 */
export const ARGUMENTS_TOO_LARGE = 'they were larger than the 4 KiB of JSON Taskdesk keeps of a running call';
export const ARGUMENTS_UNRECORDED = 'the Taskdesk that ran it did not record them';

/** A call's request: its tool and arguments, or why its arguments were not kept. */
function callRequestOf(work: NotFinishedWork): Record<string, unknown> {
  const name = work.toolName ?? '';
  if (work.arguments !== undefined) return { name, arguments: work.arguments };
  return { name, argumentsNotKept: work.argumentsTooLarge ? ARGUMENTS_TOO_LARGE : ARGUMENTS_UNRECORDED };
}

/**
 * The id of `work`'s History entry, the same at every start that lists it (undefined when its
 * record named it by nothing: its entry then gets an id of its own).
 */
export function notFinishedEntryId(work: NotFinishedWork): string | undefined {
  return work.key === undefined ? undefined : `${work.kind === 'tool-call' ? 'call' : 'request'}:${uuidOf(work.key)}`;
}

/** A request as its title and detail read it, from the question kept: a model request's as its last user message. */
function requestOf(kind: 'elicitation' | 'sampling', question: string | undefined): Record<string, unknown> {
  if (question === undefined) return {};
  if (kind === 'elicitation') return { message: question };
  return { messages: [{ role: 'user', content: { type: 'text', text: question } }] };
}

/** A UUID-shaped id made from `key`: the same key, the same id. */
function uuidOf(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
