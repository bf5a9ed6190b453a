import { createHash } from 'node:crypto';

export type { ServerConfig, ServerConfigInput } from '../contract/host-api.js';
import type { ServerConfig } from '../contract/host-api.js';

/**
 * The identity tasks are bound to: the server id, where it is reached, and its auth context.
 *
 * Two configurations that reach different processes or present different credentials never
 * see each other's tasks, even under one id; the hash keeps credentials out of task files.
 */
export function ownerIdentity(config: ServerConfig): string {
  const target =
    config.transport.type === 'stdio'
      ? ['stdio', config.transport.command, ...config.transport.args]
      : ['http', config.transport.url, authHeader(config.transport.headers)];
  return createHash('sha256')
    .update(JSON.stringify([config.id, ...target]))
    .digest('base64url');
}

function authHeader(headers: Record<string, string> | undefined): string {
  if (!headers) return '';
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization');
  return entry?.[1] ?? '';
}
