import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcCode } from '../core/errors.js';
import {
  DEFAULT_MAX_DEPTH,
  asJsonRpcMessage,
  envelopeRefusal,
  errorResponse,
  readableId,
  topLevelFields,
  type Refusal
} from './jsonrpc-checks.js';

/** How much a stdio connection reads of one message. */
export interface LineReaderLimits {
  /** The longest line (one JSON-RPC message) read; a longer one is skipped and answered. */
  maxLineBytes: number;
  /** The deepest nesting of arrays and objects accepted in a request's params. */
  maxDepth: number;
}

/** The defaults documented in the README: the SDK's own line limit, and a depth no MCP message needs. */
export const defaultLineReaderLimits: LineReaderLimits = {
  maxLineBytes: 10 * 1024 * 1024,
  maxDepth: DEFAULT_MAX_DEPTH
};

/** What the reader does besides handing messages on. */
export interface LineReaderHooks {
  /** Sends an answer to a request the reader refused. */
  reply(message: JSONRPCMessage): void;
  /** A message that could be neither delivered nor answered (a broken notification or response). */
  dropped(error: Error): void;
  /**
   * More lines are waiting than one turn of the event loop reads ({@link LINES_PER_TURN}):
   * the owner reads the rest on a later turn, so that one flooding server never holds the
   * event loop (and every other server and the UI) for long.
   */
  backlog(): void;
}

/** Lines read in one turn of the event loop before the rest waits for the next. */
export const LINES_PER_TURN = 64;

/** The first bytes of a skipped line that are kept, to find its id. */
const PREFIX_BYTES = 64 * 1024;

type Line = Buffer | { oversize: true; prefix: Buffer; bytes: number };

/**
 * Splits a server's stdout into JSON-RPC messages, one a line, with bounded memory.
 *
 * It has the shape of the SDK's `ReadBuffer` (`append`, `readMessage`, `clear`), which it
 * stands in for (see `GuardedStdioTransport`). Unlike it, every request that can be read
 * gets an answer: unparsable JSON is −32700 (`id: null`), a broken envelope −32600 or a
 * broken `_meta` −32602 with the request's id when it is readable, params nested too deep
 * −32602, and a line over the limit is skipped (only its first 64 KiB are kept) and answered
 * −32600, with its id when its first bytes hold one. The connection stays up in every case.
 */
export class JsonRpcLineReader {
  readonly #limits: LineReaderLimits;
  readonly #hooks: LineReaderHooks;
  #chunks: Buffer[] = [];
  #bytes = 0;
  #skipping: { prefix: Buffer; bytes: number } | undefined;
  readonly #lines: Line[] = [];
  #stopped = false;
  /** Lines read since the turn began ({@link nextTurn}). */
  #readThisTurn = 0;

  constructor(limits: LineReaderLimits, hooks: LineReaderHooks) {
    this.#limits = limits;
    this.#hooks = hooks;
  }

  /** Takes the next chunk of output; complete lines wait for {@link readMessage}. */
  append(chunk: Buffer): void {
    if (this.#stopped) return;
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline < 0) {
        this.#partial(chunk.subarray(start));
        return;
      }
      this.#partial(chunk.subarray(start, newline));
      this.#endLine();
      start = newline + 1;
    }
  }

  /** The next message to deliver, or null when none is complete; refused ones are answered on the way. */
  readMessage(): JSONRPCMessage | null {
    while (!this.#stopped) {
      if (this.#lines.length === 0) return null;
      if (this.#readThisTurn >= LINES_PER_TURN) {
        this.#hooks.backlog();
        return null;
      }
      this.#readThisTurn++;
      const line = this.#lines.shift()!;
      const message = Buffer.isBuffer(line) ? this.#read(line) : this.#oversize(line.prefix, line.bytes);
      if (message) return message;
    }
    return null;
  }

  /** Lines complete and not yet read. */
  get waiting(): number {
    return this.#lines.length;
  }

  /** A new turn of the event loop: another {@link LINES_PER_TURN} lines may be read. */
  nextTurn(): void {
    this.#readThisTurn = 0;
  }

  /** Forgets everything buffered. */
  clear(): void {
    this.#chunks = [];
    this.#bytes = 0;
    this.#skipping = undefined;
    this.#lines.length = 0;
  }

  /** Reads nothing more (the connection is being dropped). */
  stop(): void {
    this.#stopped = true;
    this.clear();
  }

  #partial(piece: Buffer): void {
    if (piece.length === 0) return;
    const skipping = this.#skipping;
    if (skipping) {
      if (skipping.prefix.length < PREFIX_BYTES)
        skipping.prefix = Buffer.concat([skipping.prefix, piece.subarray(0, PREFIX_BYTES - skipping.prefix.length)]);
      skipping.bytes += piece.length;
      return;
    }
    if (this.#bytes + piece.length > this.#limits.maxLineBytes) {
      const prefix = Buffer.concat([...this.#chunks, piece]).subarray(0, PREFIX_BYTES);
      this.#skipping = { prefix: Buffer.from(prefix), bytes: this.#bytes + piece.length };
      this.#chunks = [];
      this.#bytes = 0;
      return;
    }
    this.#chunks.push(piece);
    this.#bytes += piece.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#lines.push({ oversize: true, ...this.#skipping });
      this.#skipping = undefined;
      return;
    }
    this.#lines.push(this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks));
    this.#chunks = [];
    this.#bytes = 0;
  }

  #read(line: Buffer): JSONRPCMessage | undefined {
    // A CRLF line's CR is left out of the text rather than cut off it (a second string per line).
    const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
    const text = line.toString('utf8', 0, end);
    if (BLANK.test(text)) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#refuse({
        id: null,
        error: { code: JsonRpcCode.ParseError, message: `Parse error: ${(error as Error).message.slice(0, 200)}` }
      });
      return undefined;
    }
    const refusal = envelopeRefusal(value, this.#limits.maxDepth);
    if (refusal) {
      this.#refuse(refusal);
      return undefined;
    }
    // A request passed the SDK's request schema in envelopeRefusal: no second parse.
    if (isRequestShaped(value)) return value as JSONRPCMessage;
    const message = asJsonRpcMessage(value);
    if (message) return message;
    const id = readableId(value);
    if (id !== undefined && !('method' in (value as object)))
      return answerFailed(id, "The server's answer is not a well-formed JSON-RPC response");
    this.#hooks.dropped(new Error('The server sent a malformed JSON-RPC notification; it was ignored'));
    return undefined;
  }

  /** A skipped line: a request is answered −32600; an answer to one of ours fails that request. */
  #oversize(prefix: Buffer, bytes: number): JSONRPCMessage | undefined {
    const { id, method } = topLevelFields(prefix.toString('utf8'));
    const limit = `${Math.round((this.#limits.maxLineBytes / (1024 * 1024)) * 10) / 10} MiB`;
    if (!method && id !== undefined)
      return answerFailed(
        id,
        `The server's answer was larger than ${limit} (Taskdesk reads at most ${limit} a message)`
      );
    this.#refuse({
      id: id ?? null,
      error: {
        code: JsonRpcCode.InvalidRequest,
        message: `Request too large: the message was more than ${limit} (Taskdesk reads at most ${limit} a message)`,
        data: { bytes, limit: this.#limits.maxLineBytes }
      }
    });
    return undefined;
  }

  #refuse(refusal: Refusal): void {
    this.#hooks.reply(errorResponse(refusal));
  }
}

const CR = 13;

/** A line of nothing but whitespace (what `trim` removes), tested without making a trimmed copy. */
const BLANK = /^\s*$/;

function isRequestShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'method' in value && 'id' in value;
}

/** An error answer delivered to the client for its own request whose real answer could not be read. */
function answerFailed(id: string | number, message: string): JSONRPCMessage {
  return errorResponse({ id, error: { code: JsonRpcCode.InternalError, message } });
}
