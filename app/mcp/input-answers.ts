import { pathToFileURL } from 'node:url';
import path from 'node:path';
import type { z } from 'zod';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import { DEFAULT_MAX_DEPTH, describeIssues, nestsDeeperThan } from './jsonrpc-checks.js';
import {
  FormElicitationParamsSchema,
  SamplingInputParamsSchema,
  UrlElicitationParamsSchema
} from './input-request-schemas.js';
import type { TaskReceiver } from '../receiver/task-receiver.js';
import type { TaskKind, TaskOwner } from '../receiver/task-record.js';

/**
 * Answers to the input requests of MCP 2026-07-28 (inside a task's `inputRequests` or a multi
 * round-trip request's `InputRequiredResult`), given the way a legacy server's own requests are
 * answered: an elicitation in the Inbox, sampling through the server's sampling policy and the
 * providers (both with the receiver's limits), roots from the folders the user chose.
 */

/** One embedded input request. */
export interface EmbeddedRequest {
  method: string;
  params: Record<string, unknown>;
}

/** The MCP `Root` of a folder the user chose: a `file://` URI named after the folder. */
export function rootOf(folder: string): { uri: string; name: string } {
  return { uri: pathToFileURL(folder).href, name: path.basename(folder) || folder };
}

/** A `ListRootsResult` of the user's folders. */
export function listRootsResult(folders: readonly string[]): { roots: Array<{ uri: string; name: string }> } {
  return { roots: folders.map(rootOf) };
}

/** The 2026-07-28 params schema of an embedded elicitation or sampling request. */
function paramsSchemaOf(request: EmbeddedRequest): z.ZodType {
  if (request.method === 'sampling/createMessage') return SamplingInputParamsSchema;
  return request.params.mode === 'url' ? UrlElicitationParamsSchema : FormElicitationParamsSchema;
}

/**
 * Refuses an embedded elicitation or sampling request whose params the revision's schema does
 * not accept (−32602 naming the fields), as a legacy server's own request is refused by the
 * request gate: each input request is treated as the equivalent standalone request (SEP-2663),
 * so a malformed one never reaches a person or a model.
 */
function checkEmbedded(request: EmbeddedRequest): void {
  if (nestsDeeperThan(request.params, DEFAULT_MAX_DEPTH))
    throw new HostError(
      JsonRpcCode.InvalidParams,
      `Invalid params: nested more than ${DEFAULT_MAX_DEPTH} levels deep`,
      {
        maxDepth: DEFAULT_MAX_DEPTH
      }
    );
  const parsed = paramsSchemaOf(request).safeParse(request.params);
  if (!parsed.success)
    throw new HostError(
      JsonRpcCode.InvalidParams,
      `Invalid params for ${request.method}: ${describeIssues(parsed.error)}`
    );
}

/**
 * Answers one embedded request for `owner`; `relatedTaskId` names what asks (a task or an
 * exchange) so the Inbox can say which tool. Rejects with −32601 for a method Taskdesk does
 * not answer, with −32602 for params the revision's schema does not accept,
 * or with whatever the receiver rejects with (a refused sampling request).
 */
export async function answerEmbedded(
  receiver: TaskReceiver,
  owner: TaskOwner,
  folders: readonly string[],
  request: EmbeddedRequest,
  context: { relatedTaskId: string; signal: AbortSignal }
): Promise<Record<string, unknown>> {
  if (request.method === 'roots/list') return listRootsResult(folders);
  const kind: TaskKind | undefined =
    request.method === 'elicitation/create'
      ? 'elicitation'
      : request.method === 'sampling/createMessage'
        ? 'sampling'
        : undefined;
  if (!kind) throw new HostError(JsonRpcCode.MethodNotFound, `Taskdesk does not answer ${request.method} requests.`);
  checkEmbedded(request);
  const result = await receiver.runOrdinary(owner, kind, request.params, {
    relatedTaskId: context.relatedTaskId,
    signal: context.signal
  });
  // The related-task tag is a 2025-11-25 convention; a modern answer is the bare result.
  const { _meta: meta, ...rest } = result;
  const { [RELATED_TASK_META_KEY]: _related, ...otherMeta } = (meta as Record<string, unknown> | undefined) ?? {};
  return Object.keys(otherMeta).length > 0 ? { ...rest, _meta: otherMeta } : rest;
}
