import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** A notification handler as a fake client keeps it. */
export type NotificationHandler = (notification: { method: string; params?: unknown }) => void;

/**
 * An SDK client that only keeps its notification handlers, by method: all the requestor's
 * attachments do with the client of a 2026-07-28 server (its requests go through the peer).
 */
export function notificationClient(): Client & { handlers: Map<string, NotificationHandler> } {
  const handlers = new Map<string, NotificationHandler>();
  return {
    handlers,
    setNotificationHandler: (schema: { shape: { method: { value: string } } }, handler: NotificationHandler) =>
      handlers.set(schema.shape.method.value, handler),
    removeNotificationHandler: (method: string) => handlers.delete(method)
  } as unknown as Client & { handlers: Map<string, NotificationHandler> };
}
