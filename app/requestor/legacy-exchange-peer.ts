import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  GetPromptResultSchema,
  McpError,
  ReadResourceResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ExchangePeer } from './input-exchanges.js';

/**
 * A 2025-11-25 server's requests, as the multi round-trip machinery (`InputExchanges`) reads them.
 *
 * MCP 2025-11-25 (client/elicitation, "URL Elicitation Required Error"): a server that cannot go
 * on until the person has done something in their browser (signed in to a third party, typically)
 * answers a request with −32042, its `data.elicitations` holding URL-mode elicitations, each with
 * an `elicitationId`; the client asks the person's consent to open each link and, once the work
 * there is done (`notifications/elicitation/complete`, or the person says so), may send the same
 * request again. That is a multi round-trip request whose questions are all URL elicitations and
 * whose retry carries no answers: so such an error is given to `InputExchanges` as an
 * `InputRequiredResult`, and the exchange (stored, back in the Inbox after a restart, waiting for
 * the person) does the rest. The retry is the original request with a new id
 * (`InputExchangeView.protocol`).
 *
 * Any other answer is passed on as the SDK gives it, less any `resultType` (a `CreateTaskResult`
 * keeps its 2025-11-25 shape), and any other error is thrown as is: so is a −32042 whose data is
 * not a list of URL elicitations with ids, which the server must not send and Taskdesk does not
 * guess at.
 */

const UrlElicitationSchema = z.looseObject({
  mode: z.literal('url'),
  elicitationId: z.string().min(1),
  url: z.string(),
  message: z.string()
});

const RequiredElicitationsSchema = z.looseObject({
  elicitations: z.array(UrlElicitationSchema).min(1)
});

const AnyResultSchema = z.looseObject({});

/** A task-augmented `tools/call`'s answer: a task was created, or the server answered plainly after all. */
export const CreateTaskOrToolResultSchema = z.union([CreateTaskResultSchema, CallToolResultSchema]);

/** What the SDK checks an answer against, for the first request and every retry alike. */
function schemaOf(method: string, tasks: boolean): z.ZodType<Record<string, unknown>> {
  switch (method) {
    case 'tools/call':
      return tasks ? CreateTaskOrToolResultSchema : CallToolResultSchema;
    case 'prompts/get':
      return GetPromptResultSchema;
    case 'resources/read':
      return ReadResourceResultSchema;
    default:
      return AnyResultSchema;
  }
}

/** The key of each required elicitation in the round's `inputRequests`: its position in the list (the id is the server's text, kept in the request). */
function inputKey(index: number): string {
  return `url-${index + 1}`;
}

/** The elicitations of a −32042 error, or undefined when it is another error or not a valid one. */
export function requiredElicitations(error: unknown): z.infer<typeof UrlElicitationSchema>[] | undefined {
  if (!(error instanceof McpError) || error.code !== (ErrorCode.UrlElicitationRequired as number)) return undefined;
  const parsed = RequiredElicitationsSchema.safeParse(error.data);
  return parsed.success ? parsed.data.elicitations : undefined;
}

/**
 * `client` as an exchange peer (see the comment at the top of this file): the same for the first
 * request of a call and for every retry of its exchange, after a restart too. A task-augmented
 * request (`tasks`) never gets the signal, since the SDK would send `notifications/cancelled`,
 * which MCP forbids for it: its caller or exchange stops waiting instead, and a task created late
 * is cancelled with `tasks/cancel`.
 */
export function legacyExchangePeer(client: Client): ExchangePeer {
  const peer: ExchangePeer = {
    async request(method, params, { tasks, timeout, signal, onprogress }) {
      try {
        const result = await client.request({ method, params }, schemaOf(method, tasks), {
          timeout,
          ...(signal && !tasks && { signal }),
          ...(onprogress && { onprogress })
        });
        // `resultType` is a 2026-07-28 word: in a 2025-11-25 answer (whose schemas pass unknown
        // fields) it means nothing, and is dropped so that a stray one is never read as a round.
        const { resultType: _notThisRevision, ...answer } = result;
        return answer;
      } catch (error) {
        const listed = requiredElicitations(error);
        if (!listed) throw error;
        // One link listed twice is opened once.
        const elicitations = listed.filter(
          (elicitation, index) =>
            listed.findIndex((other) => other.elicitationId === elicitation.elicitationId) === index
        );
        return {
          resultType: 'input_required',
          inputRequests: Object.fromEntries(
            elicitations.map((elicitation, index) => [
              inputKey(index),
              { method: 'elicitation/create', params: { ...elicitation } }
            ])
          )
        };
      }
    }
  };
  LEGACY_PEERS.add(peer);
  return peer;
}

const LEGACY_PEERS = new WeakSet<ExchangePeer>();

/** Whether `peer` speaks MCP 2025-11-25 (made by {@link legacyExchangePeer}): an exchange is retried only in its own revision. */
export function isLegacyPeer(peer: ExchangePeer): boolean {
  return LEGACY_PEERS.has(peer);
}
