import type { ServerConfig } from './server-config.js';
import { DiscoverResultSchema, MODERN_PROTOCOL_VERSION, envelope } from './modern-protocol.js';

/** How long the check may take; it runs only after a Streamable HTTP connect already failed. */
const CHECK_TIMEOUT_MS = 3_000;

type HttpTransportConfig = Extract<ServerConfig['transport'], { type: 'http' }>;

/**
 * Explains a Streamable HTTP connect that failed because the server is modern-only.
 *
 * Taskdesk reaches MCP 2026-07-28 servers over stdio only; over HTTP it still connects with
 * `initialize`, which a modern-only server refuses. After such a failure this sends one modern
 * `server/discover` (with the `MCP-Protocol-Version` and `Mcp-Method` headers) and, when a
 * `DiscoverResult` comes back, returns a reason that says so. Otherwise (or on any error)
 * undefined: the original failure stands.
 */
export async function checkModernHttpServer(transport: HttpTransportConfig, clientInfo: { name: string; version: string }): Promise<string | undefined> {
  try {
    const response = await fetch(transport.url, {
      method: 'POST',
      headers: {
        ...transport.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'server/discover'
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'taskdesk-discover', method: 'server/discover', params: { _meta: envelope(clientInfo, { tasks: true }) } }),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS)
    });
    if (!response.ok) return undefined;
    const message = parseBody(response.headers.get('content-type') ?? '', await response.text()) as { result?: unknown } | undefined;
    const discover = DiscoverResultSchema.safeParse(message?.result);
    if (!discover.success) return undefined;
    return (
      `The server speaks only MCP ${discover.data.supportedVersions.join(', ')} over Streamable HTTP (it refused initialize and answered server/discover). ` +
      `Taskdesk reaches MCP ${MODERN_PROTOCOL_VERSION} servers over stdio only for now.`
    );
  } catch {
    return undefined;
  }
}

/** The JSON-RPC message of a JSON body, or of the first `data:` event of an SSE body. */
function parseBody(contentType: string, body: string): unknown {
  if (contentType.includes('text/event-stream')) {
    const data = body
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .find((line) => line.length > 0);
    return data === undefined ? undefined : JSON.parse(data);
  }
  return JSON.parse(body);
}
