import type { ServerResponse } from 'node:http';
import { HostEvents, type HostEvent, type HostEventPayload } from '../contract/host-api.js';
import type { Host } from '../host/host.js';

/** What the event stream needs of the host. */
export type HostEventFeed = Pick<Host, 'on' | 'warnings'>;

/** How often an idle stream sends a comment, so proxies and sleeping laptops notice a dead peer. */
const HEARTBEAT_MS = 25_000;

/** The host events, as the contract names them. */
export const HOST_EVENT_NAMES = Object.keys(HostEvents) as HostEvent[];

/**
 * Streams every host event to one client as Server-Sent Events, each `data:` a JSON
 * `{ event, payload }`. Returns the function that ends the stream.
 *
 * Warnings raised while the host loaded its stores happened before any page connected, so each
 * new stream starts with them.
 */
/** What an event stream may hold unsent before it is closed. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export function openEventStream(
  host: HostEventFeed,
  response: ServerResponse,
  headers: Record<string, string>
): () => void {
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no'
  });
  // A short retry: the server is local, and the page shows it is offline until it reconnects.
  response.write('retry: 1000\n\n');
  const send = <E extends HostEvent>(event: E, payload: HostEventPayload<E>) => {
    // A page that stopped reading must not make the host buffer without limit: drop it, it
    // reconnects and reloads its state.
    if (response.writableLength > MAX_BUFFERED_BYTES) return end();
    response.write(`data: ${JSON.stringify({ event, payload })}\n\n`);
  };
  for (const warning of host.warnings) send('store.warning', warning);
  const unsubscribes = HOST_EVENT_NAMES.map((event) => host.on(event, (payload) => send(event, payload)));
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    for (const unsubscribe of unsubscribes) unsubscribe();
    response.end();
  };
  response.on('close', end);
  return end;
}
