/**
 * Words for a connection that failed below MCP, on the network: Node's `fetch` says only
 * "fetch failed" and keeps the reason (a system error's code, address and port) in its `cause`.
 * No library maps these codes to sentences a person can act on, so this small table does.
 */
export function networkFailureText(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const cause = current as { code?: unknown; address?: unknown; port?: unknown; hostname?: unknown; cause?: unknown };
    const code = typeof cause.code === 'string' ? cause.code : undefined;
    const where =
      typeof cause.address === 'string'
        ? `${cause.address}${typeof cause.port === 'number' ? `:${cause.port}` : ''}`
        : typeof cause.hostname === 'string'
          ? cause.hostname
          : 'the server';
    const words = code ? sentence(code, where) : undefined;
    if (words) return `${words} (${code}).`;
    // Node's fetch refuses the ports browsers block (1, 21, 25, 6000…) before it connects.
    if ((current as { message?: unknown }).message === 'bad port')
      return 'Taskdesk cannot connect to this port: it is one of the ports web clients refuse (as browsers do). Use another port.';
    current = cause.cause;
  }
  return undefined;
}

function sentence(code: string, where: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing is listening at ${where}: is the server running, and is the URL's port right?`;
    case 'ENOTFOUND':
      return `The host name ${where} was not found: is the URL right?`;
    case 'EAI_AGAIN':
      return `The host name ${where} could not be looked up just now: is the network up?`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Connecting to ${where} timed out: is the server up, and reachable from here?`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `${where} closed the connection before it answered`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached from this network`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `The TLS certificate of ${where} is not trusted`;
    default:
      return undefined;
  }
}
