import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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
 * Any other answer is passed on as the SDK gives it (a `CreateTaskResult` keeps its 2025-11-25
 * shape, with no `resultType`), and any other error is thrown as is: so is a −32042 whose data is
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

/** How {@link legacyExchangePeer} sends. */
export interface LegacyPeerOptions {
  /** The answer's schema, checked by the SDK (any object by default). */
  schema?: z.ZodType<Record<string, unknown>>;
  /**
   * Whether a caller's abort reaches the server as `notifications/cancelled` (the SDK sends one
   * when given the signal). False for a task-augmented request, which MCP forbids cancelling so:
   * its caller stops waiting instead, and a task created late is cancelled with `tasks/cancel`.
   */
  cancels?: boolean;
}

/** The key of each required elicitation in the round's `inputRequests`: its position, as ids may repeat. */
function inputKey(index: number): string {
  return `url-${index + 1}`;
}

/** The elicitations of a −32042 error, or undefined when it is another error or not a valid one. */
export function requiredElicitations(error: unknown): z.infer<typeof UrlElicitationSchema>[] | undefined {
  if (!(error instanceof McpError) || error.code !== (ErrorCode.UrlElicitationRequired as number)) return undefined;
  const parsed = RequiredElicitationsSchema.safeParse(error.data);
  return parsed.success ? parsed.data.elicitations : undefined;
}

/** `client` as an exchange peer: see the comment at the top of this file. */
export function legacyExchangePeer(client: Client, options: LegacyPeerOptions = {}): ExchangePeer {
  const schema = options.schema ?? AnyResultSchema;
  return {
    async request(method, params, { timeout, signal, onprogress }) {
      try {
        const result = await client.request({ method, params }, schema, {
          timeout,
          ...(signal && options.cancels !== false && { signal }),
          ...(onprogress && { onprogress })
        });
        return { ...result };
      } catch (error) {
        const elicitations = requiredElicitations(error);
        if (!elicitations) throw error;
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
}
