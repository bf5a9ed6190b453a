import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { ServerConnection } from '../mcp/server-connection.js';
import { checkResultType } from '../requestor/result-type.js';

/** Any result object: the caller checks it against the method's own schema. */
const AnyObjectSchema = z.looseObject({});

/** The listings a person picks a message's sources from. */
export type SourceListMethod = 'prompts/list' | 'resources/list';

/**
 * A connected server as the assistant lists its prompts and resources, in the server's own era:
 * what it declared (`initialize` for 2025-11-25, `server/discover` for 2026-07-28) and a list
 * request as that era sends it (the 2026-07-28 envelope for a modern server). Fetching one
 * (`prompts/get`, `resources/read`) goes through the requestor instead, whose multi round-trip
 * exchange answers a modern server's questions.
 */
export interface SourceServer {
  /** The server as the person named it (its configured name), for the labels of what is fetched from it. */
  readonly name?: string;
  readonly capabilities: Record<string, unknown>;
  list(method: SourceListMethod, params: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>>;
}

/**
 * The {@link SourceServer} of a ready connection. A modern server's list whose `resultType` is
 * not `complete` is refused (see `checkResultType`).
 */
export function sourceServerOf(
  connection: Pick<ServerConnection, 'client' | 'config' | 'era' | 'discover' | 'modernRequest'>
): SourceServer {
  const name = connection.config.name;
  if (connection.era === 'modern')
    return {
      name,
      capabilities: connection.discover?.capabilities ?? {},
      list: async (method, params, timeout) =>
        checkResultType(
          method,
          await connection.modernRequest(method, params, { tasks: false, timeout }),
          { tasks: false },
          name
        )
    };
  return { ...legacySourceServer(connection.client), name };
}

/** A 2025-11-25 server through its SDK client. */
export function legacySourceServer(client: Client): SourceServer {
  return {
    capabilities: client.getServerCapabilities() ?? {},
    list: async (method, params, timeout) => ({
      ...(await client.request({ method, params }, AnyObjectSchema, { timeout }))
    })
  };
}
