import type { ConnectionState } from '../contract/host-api.js';

/**
 * What a `server.state` audit entry keeps of a connection's state: its status and reason, and
 * once ready the protocol version, era and the server's name and version.
 *
 * Not the server's `capabilities` (a server chooses how large they are, and the Desk shows them
 * live), nor what the Desk adds for its own view (the sign-in, since when it is ready, the
 * resolved executable): a person reading the log wants to know what happened to the connection.
 */
export function connectionStateDetail(state: ConnectionState): Record<string, unknown> {
  return {
    status: state.status,
    ...(state.reason !== undefined && { reason: state.reason }),
    ...(state.protocolVersion !== undefined && { protocolVersion: state.protocolVersion }),
    ...(state.era !== undefined && { era: state.era }),
    ...(state.serverInfo !== undefined && {
      serverInfo: { name: state.serverInfo.name, version: state.serverInfo.version }
    })
  };
}
