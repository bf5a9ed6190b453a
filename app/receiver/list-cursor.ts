import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where a `tasks/list` page ended. */
export interface CursorPosition {
  /** The task's creation sequence number: the order of `tasks/list`. */
  sequence: number;
  taskId: string;
}

/**
 * Encodes a list position as an opaque, signed token bound to one owner.
 *
 * The signature makes a forged, altered or foreign cursor detectable, so it is
 * answered with −32602 instead of being read as a position.
 */
export function encodeCursor(key: Buffer, identity: string, position: CursorPosition): string {
  const body = Buffer.from(JSON.stringify([position.sequence, position.taskId])).toString('base64url');
  return `${body}.${sign(key, identity, body)}`;
}

/** Decodes a cursor made by {@link encodeCursor} for the same owner; undefined when invalid. */
export function decodeCursor(key: Buffer, cursor: string, identity: string): CursorPosition | undefined {
  if (typeof cursor !== 'string' || cursor.length > 1024) return undefined;
  const [body, signature, extra] = cursor.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(key, identity, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const [sequence, taskId] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    return typeof sequence === 'number' && typeof taskId === 'string' ? { sequence, taskId } : undefined;
  } catch {
    return undefined;
  }
}

function sign(key: Buffer, identity: string, body: string): string {
  return createHmac('sha256', key).update(identity).update('\0').update(body).digest('base64url').slice(0, 22);
}
