import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'raw-stdio-peer.ts');

/** A JSON-RPC message the host wrote to the raw peer. */
export type HostMessage = {
  id?: string | number | null;
  method?: string;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

/** What the peer reports on its control socket. */
type PeerEvent = { fromHost?: HostMessage; done?: boolean; latencies?: number[]; sentAt?: number[] };

/** A probe's answers: each latency in ms, and when its request was sent (epoch ms, as `performance.timeOrigin`). */
export interface ProbeTimes {
  latencies: number[];
  sentAt: number[];
}

/**
 * The test's end of `raw-stdio-peer.ts`: a server config to connect, bytes to send as the
 * server, and what the host wrote back.
 */
export class RawPeer {
  readonly config: ServerConfigInput;
  readonly #server: net.Server;
  readonly #dir: string;
  #socket: net.Socket | undefined;
  readonly #connected: Promise<void>;
  readonly #received: HostMessage[] = [];
  #waiters: Array<{ match: (m: HostMessage) => boolean; resolve: (m: HostMessage) => void }> = [];
  #done: Array<() => void> = [];
  #latencies: (times: ProbeTimes) => void = () => undefined;

  /**
   * `era: 'modern'`: the peer answers `server/discover` as a 2026-07-28 server, followed in the
   * same write by `afterDiscover`, `discoverDelayMs` late if given; `banner` is written as it
   * starts; `ignoreInitialize` leaves `initialize` unanswered (see raw-stdio-peer.ts).
   */
  constructor(
    id = 'raw',
    options: {
      era?: 'modern';
      afterDiscover?: string;
      banner?: string;
      discoverDelayMs?: number;
      ignoreInitialize?: boolean;
    } = {}
  ) {
    this.#dir = fs.mkdtempSync(path.join(os.tmpdir(), 'raw-peer-'));
    const socketPath = path.join(this.#dir, 'control.sock');
    this.config = {
      id,
      name: 'Raw peer',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [
          '--import',
          'tsx',
          script,
          socketPath,
          JSON.stringify({
            modern: options.era === 'modern',
            ...(options.afterDiscover !== undefined && { afterDiscover: options.afterDiscover }),
            ...(options.banner !== undefined && { banner: options.banner }),
            ...(options.discoverDelayMs !== undefined && { discoverDelayMs: options.discoverDelayMs }),
            ...(options.ignoreInitialize && { ignoreInitialize: true })
          })
        ]
      }
    };
    let connected: () => void = () => undefined;
    this.#connected = new Promise((resolve) => (connected = resolve));
    this.#server = net.createServer((socket) => {
      this.#socket = socket;
      let buffer = '';
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) this.#event(JSON.parse(line) as PeerEvent);
      });
      socket.on('error', () => undefined);
      // The peer exited (the host dropped it): nothing more will be done.
      socket.on('close', () => {
        for (const done of this.#done.splice(0)) done();
      });
      connected();
    });
    this.#server.listen(socketPath);
  }

  /** Everything the host wrote that the peer did not answer itself. */
  get received(): readonly HostMessage[] {
    return this.#received;
  }

  /** Writes `text` to the host as the server's output, exactly (add the newline yourself). */
  async send(text: string): Promise<void> {
    await this.#order({ send: text });
  }

  /** Sends a request line and resolves with the host's answer to its id. */
  async request(message: Record<string, unknown> & { id: string | number }): Promise<HostMessage> {
    const answer = this.next((m) => m.id === message.id && !('method' in m));
    await this.send(`${JSON.stringify(message)}\n`);
    return answer;
  }

  /** Writes one line of exactly `bytes` bytes: `head`, then `fill` repeated, then `tail` (with its newline). */
  async big(head: string, fill: string, bytes: number, tail: string): Promise<void> {
    await this.#order({ big: { head, fill, bytes, tail } });
  }

  /** Stops reading stdin for good: the host's writes pile up. */
  async stopReading(): Promise<void> {
    await this.#order({ stopReading: true });
  }

  /** Writes `line` `count` times (`$i` is the index); resolves once written or the host is gone. */
  flood(line: string, count: number): Promise<void> {
    return this.#order({ flood: { line, count } });
  }

  /**
   * Sends `line` (a request whose id is `$i`) every `intervalMs` on average (each gap drawn from
   * half to one and a half of it) for `durationMs`, timed in the peer's own process; resolves with
   * each answer's latency in ms.
   */
  async probe(line: string, intervalMs: number, durationMs: number): Promise<ProbeTimes> {
    const reported = new Promise<ProbeTimes>((resolve) => (this.#latencies = resolve));
    await this.#order({ probe: { line, intervalMs, durationMs } });
    return reported;
  }

  /** Sends task-augmented elicitations of `bytes` bytes at `perSecond`, cancelling each at once. */
  elicitAndCancel(bytes: number, perSecond: number, durationMs: number): Promise<void> {
    return this.#order({ elicitCancel: { bytes, perSecond, durationMs } });
  }

  /** Writes `line` at `perSecond` for `durationMs` (`$i` is the index). */
  paced(line: string, perSecond: number, durationMs: number): Promise<void> {
    return this.#order({ flood: { line, count: Number.MAX_SAFE_INTEGER, perSecond, durationMs } });
  }

  /** The next message from the host that matches (one already received counts). */
  next(match: (m: HostMessage) => boolean): Promise<HostMessage> {
    const seen = this.#received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  close(): void {
    this.#socket?.destroy();
    this.#server.close();
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }

  async #order(order: Record<string, unknown>): Promise<void> {
    await this.#connected;
    if (this.#socket!.destroyed) return;
    const done = new Promise<void>((resolve) => this.#done.push(resolve));
    this.#socket!.write(`${JSON.stringify(order)}\n`);
    await done;
  }

  #event(event: PeerEvent): void {
    if (event.latencies) this.#latencies({ latencies: event.latencies, sentAt: event.sentAt ?? [] });
    if (event.done) this.#done.shift()?.();
    const message = event.fromHost;
    if (!message) return;
    this.#received.push(message);
    for (const waiter of [...this.#waiters]) {
      if (!waiter.match(message)) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  }
}
