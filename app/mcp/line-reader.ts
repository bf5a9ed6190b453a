import { isAscii } from 'node:buffer';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '../core/clock.js';
import { JsonRpcCode } from '../core/errors.js';
import { RateLimiter } from '../receiver/rate-limiter.js';
import { vouchEscapeFree } from '../store/json-text.js';
import { defaultReceiverPolicy } from '../receiver/receiver-policy.js';
import {
  DEFAULT_MAX_DEPTH,
  asJsonRpcMessage,
  envelopeRefusal,
  errorResponse,
  readableId,
  topLevelFields,
  type Refusal
} from './jsonrpc-checks.js';
import { scanTopLevel } from './top-level-scan.js';

/** How much a stdio connection reads of one message. */
export interface LineReaderLimits {
  /** The longest line (one JSON-RPC message) read; a longer one is skipped and answered. */
  maxLineBytes: number;
  /** The deepest nesting of arrays and objects accepted in a request's params. */
  maxDepth: number;
  /**
   * Bytes a second of large request lines ({@link LARGE_LINE_BYTES} or more) a server may send,
   * and the most saved up: a large request line beyond them is refused −32029 before it is parsed.
   */
  largeRequestBytesPerSecond: number;
  largeRequestBurstBytes: number;
  /**
   * Bytes a second of large lines not delivered (requests refused for that budget or the line
   * limit, lines that are not JSON-RPC) that are still read at the pipe's pace, and the most
   * saved up: past them, the server is read no faster than this (see {@link LineReaderHooks.throttle}).
   */
  refusedRequestBytesPerSecond: number;
  refusedRequestBurstBytes: number;
}

/**
 * What a large request line may hold besides the params the receiver counts (the envelope,
 * `task`, `_meta`): its budget here is the receiver's with this much more (1/16).
 */
const ENVELOPE_ALLOWANCE = 17 / 16;

/**
 * How many times the large-request budget a server may send in large lines that are not
 * delivered (requests refused −32029 or as too large, lines that are not JSON-RPC) and still be
 * read at the pipe's pace; past that, Taskdesk reads it no faster (the pipe then holds the
 * server back), so it reads at most three times the budget in large requests from a server
 * however many it sends (answers to its own requests and notifications are not counted).
 *
 * A server that sent 500 KB requests 50 times a second (25 MB a second, all but a few refused)
 * had Taskdesk read, scan and answer all of it: the reads alone were 25 MB a second of buffers
 * outside the heap, which V8 frees only in a collection, and it ran a full one every 1.3 s
 * (`--trace-gc`: 8 in 10 s, each 5–10 ms on the event loop, with 10–20 ms of marking steps), for
 * every server and the window alike; read at this pace, 2 in 10 s.
 */
const REFUSED_FACTOR = 2;

/**
 * The defaults documented in the README: the SDK's own line limit, a depth no MCP message needs,
 * and the receiver's budget of request params bytes (2 MiB a second, bursts of 8 MiB) with
 * {@link ENVELOPE_ALLOWANCE} for what a line holds besides its params. A large request this
 * budget refuses, the receiver would refuse once parsed (its params alone are over its budget):
 * it is refused without being parsed. One within it is parsed, and the receiver's exact count
 * of its params decides. (Twice the receiver's budget, as until December 2026, let a flooding
 * server make Taskdesk parse 16 MiB at once, half of it only to refuse it.)
 */
export const defaultLineReaderLimits: LineReaderLimits = {
  maxLineBytes: 10 * 1024 * 1024,
  maxDepth: DEFAULT_MAX_DEPTH,
  largeRequestBytesPerSecond: defaultReceiverPolicy.requestBytesPerSecond * ENVELOPE_ALLOWANCE,
  largeRequestBurstBytes: defaultReceiverPolicy.requestBytesBurst * ENVELOPE_ALLOWANCE,
  refusedRequestBytesPerSecond: REFUSED_FACTOR * defaultReceiverPolicy.requestBytesPerSecond * ENVELOPE_ALLOWANCE,
  refusedRequestBurstBytes: REFUSED_FACTOR * defaultReceiverPolicy.requestBytesBurst * ENVELOPE_ALLOWANCE
};

/** Lines at least this long count against the large-request budget (shorter ones cost little to parse). */
export const LARGE_LINE_BYTES = 64 * 1024;

/** What the reader does besides handing messages on. */
export interface LineReaderHooks {
  /** Sends an answer to a line the reader refused, or drops it (a 2026-07-28 server is written no responses). */
  reply(message: JSONRPCMessage): void;
  /** A message that could be neither delivered nor answered (a broken notification or response). */
  dropped(error: Error): void;
  /**
   * More lines are waiting than this turn of the event loop reads ({@link LINES_PER_TURN},
   * {@link BYTES_PER_TURN}, a large line: see {@link JsonRpcLineReader}): the owner reads the rest
   * on a later turn (calling {@link JsonRpcLineReader.nextTurn} first) that begins after the event
   * loop has polled for input again, so that one flooding server never holds the event loop (and
   * every other server and the UI) for long.
   */
  backlog(): void;
  /**
   * The server sends large lines that are not delivered faster than they are read
   * (`refusedRequestBytesPerSecond`): the owner reads nothing more from it for `ms`, so that the
   * pipe holds the server back instead of Taskdesk reading its flood only to refuse it.
   */
  throttle?(ms: number): void;
}

/** Lines read in one turn of the event loop before the rest waits for the next. */
export const LINES_PER_TURN = 64;
/**
 * Bytes of lines read in one turn before the rest waits for the next (a longer line is read
 * alone): a request of a megabyte costs milliseconds to parse, check and journal, and several
 * read in one turn kept every other server waiting for all of them.
 */
export const BYTES_PER_TURN = 1024 * 1024;

/** The first bytes of a skipped line that are kept, to find its id. */
const PREFIX_BYTES = 64 * 1024;

/** A line's text, the bytes of the line it was decoded from, and what its bytes tell of its strings. */
interface Decoded {
  text: string;
  bytes: number;
  /** Nothing but ASCII. */
  ascii: boolean;
  /** No backslash: no string in it has a character JSON escapes (only set for a large line). */
  escapeFree: boolean;
}

/**
 * A complete line: one piece of a chunk, the pieces of several (joined when it is read, see
 * {@link JsonRpcLineReader}), or what is kept of one over the limit.
 */
type Line = Buffer | { pieces: Buffer[]; bytes: number } | { oversize: true; prefix: Buffer; bytes: number };

/**
 * The largest line joined in the reader's own buffer, which is kept and reused; a longer one is
 * joined in a buffer of its own.
 */
const SCRATCH_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Splits a server's stdout into JSON-RPC messages, one a line, with bounded memory.
 *
 * It has the shape of the SDK's `ReadBuffer` (`append`, `readMessage`, `clear`), which it
 * stands in for (see `GuardedStdioTransport`). Unlike it, every request that can be read
 * gets an answer, through `reply` (whose owner drops it for a server that is written no
 * responses, see `GuardedStdioTransport.sendsNoResponses`): unparsable JSON is −32700 (`id: null`), a broken envelope −32600 or a
 * broken `_meta` −32602 with the request's id when it is readable, params nested too deep
 * −32602, and a line over the limit is skipped (only its first 64 KiB are kept) and answered
 * −32600, with its id when its first bytes hold one; a large request past the server's budget of
 * large request bytes is −32029, unparsed. The connection stays up in every case.
 *
 * A large line ({@link LARGE_LINE_BYTES} or more) costs the event loop milliseconds to decode,
 * parse, handle and journal, so it is never read in the turn it arrived in (a data event,
 * {@link append}), and its steps take a turn of the owner's ({@link nextTurn}) each: it is decoded
 * on one, parsed on the next, and its message delivered on the one after. Every other server's
 * input (and the UI's) that came meanwhile is taken between the steps rather than behind all of
 * them. A turn takes one large line's step at most. In a flood of 1 MB requests, a well-behaved
 * server's polls waited behind the parse, the handling and the journal write of one request at
 * once; later, behind the decoding and the parse together (1.5–2.2 ms a turn here, against
 * 0.75 and 1.0 ms apart).
 *
 * A line that came in several chunks waits as their pieces, and is joined only when it is read,
 * in a buffer the reader keeps for it (up to {@link SCRATCH_MAX_BYTES}): a line is decoded (a
 * copy) or scanned as soon as it is joined, and nothing read from it refers to its bytes. A new buffer per
 * line (`Buffer.concat`) doubled the memory outside the heap a flood of 1 MB requests allocates,
 * about 25 MB a second next to the chunks themselves, and each 64 MB of it made V8 collect
 * garbage ("external memory pressure"), on the event loop.
 */
export class JsonRpcLineReader {
  readonly #limits: LineReaderLimits;
  readonly #hooks: LineReaderHooks;
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Where lines of several pieces are joined to be read (see above). */
  #scratch: Buffer | undefined;
  #skipping: { prefix: Buffer; bytes: number } | undefined;
  readonly #lines: Line[] = [];
  #stopped = false;
  /** Lines read since the turn began ({@link nextTurn}), and their bytes. */
  #readThisTurn = 0;
  #bytesThisTurn = 0;
  /** Whether this turn may still take a large line's step (decode, parse or deliver): not in a data event's turn. */
  #largeThisTurn = false;
  /** A large line decoded on the last turn, parsed first on the next. */
  #decoded: Decoded | undefined;
  /** A large line's message parsed on the last turn, delivered first on the next. */
  #parsed: JSONRPCMessage | undefined;
  /** The large-request budget (one bucket: a reader reads one server). */
  readonly #large: RateLimiter;
  /** What of the large lines not delivered is read at the pipe's pace (see {@link LineReaderHooks.throttle}). */
  readonly #refused: RateLimiter;

  constructor(limits: LineReaderLimits, hooks: LineReaderHooks, clock: Clock = systemClock) {
    this.#limits = limits;
    this.#hooks = hooks;
    this.#large = new RateLimiter(clock, limits.largeRequestBytesPerSecond, limits.largeRequestBurstBytes);
    this.#refused = new RateLimiter(clock, limits.refusedRequestBytesPerSecond, limits.refusedRequestBurstBytes);
  }

  /** Takes the next chunk of output; complete lines wait for {@link readMessage}. */
  append(chunk: Buffer): void {
    if (this.#stopped) return;
    // A data event: its turn reads no large line (see above).
    this.#largeThisTurn = false;
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
      // A large line's steps, each in a turn of its own: decoded, parsed, delivered (see above).
      const parsed = this.#parsed;
      if (parsed) {
        if (!this.#takeLargeStep()) return null;
        this.#parsed = undefined;
        this.#readThisTurn++;
        return parsed;
      }
      const decoded = this.#decoded;
      if (decoded) {
        if (!this.#takeLargeStep()) return null;
        this.#decoded = undefined;
        // Its parse is this turn's work too: a refused line leaves room for fewer small ones.
        this.#bytesThisTurn += decoded.bytes;
        const message = this.#parse(decoded);
        if (message) {
          this.#parsed = message;
          this.#hooks.backlog();
          return null;
        }
        // Refused: the turn goes on with the small lines behind it.
        continue;
      }
      if (this.#lines.length === 0) return null;
      if (this.#readThisTurn >= LINES_PER_TURN || this.#bytesThisTurn >= BYTES_PER_TURN) {
        this.#hooks.backlog();
        return null;
      }
      const large = isLarge(this.#lines[0]!);
      if (large && !this.#takeLargeStep()) return null;
      this.#readThisTurn++;
      const line = this.#lines.shift()!;
      if (Buffer.isBuffer(line) || 'pieces' in line) {
        const bytes = Buffer.isBuffer(line) ? line.length : line.bytes;
        this.#bytesThisTurn += bytes;
        const decoded = this.#decode(Buffer.isBuffer(line) ? line : this.#joined(line.pieces, line.bytes));
        if (!decoded) continue;
        if (large) {
          // Parsed on the next turn: this one ends with the decoding.
          this.#decoded = decoded;
          this.#hooks.backlog();
          return null;
        }
        const message = this.#parse(decoded);
        if (message) return message;
      } else {
        this.#bytesThisTurn += PREFIX_BYTES;
        const message = this.#oversize(line.prefix, line.bytes);
        if (message) return message;
      }
    }
    return null;
  }

  /**
   * Whether this turn may take a large line's next step (and takes it); if not, the rest waits
   * for the next turn.
   */
  #takeLargeStep(): boolean {
    if (!this.#largeThisTurn) {
      this.#hooks.backlog();
      return false;
    }
    this.#largeThisTurn = false;
    return true;
  }

  /** Messages complete and not yet delivered. */
  get waiting(): number {
    return this.#lines.length + (this.#decoded || this.#parsed ? 1 : 0);
  }

  /**
   * A new turn of the owner's, begun after the event loop polled for input: another
   * {@link LINES_PER_TURN} lines may be read, and one large line's step taken (see above).
   */
  nextTurn(): void {
    this.#readThisTurn = 0;
    this.#bytesThisTurn = 0;
    this.#largeThisTurn = true;
  }

  /** Forgets everything buffered. */
  clear(): void {
    this.#decoded = undefined;
    this.#parsed = undefined;
    this.#chunks = [];
    this.#bytes = 0;
    this.#scratch = undefined;
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
    this.#lines.push(this.#chunks.length === 1 ? this.#chunks[0]! : { pieces: this.#chunks, bytes: this.#bytes });
    this.#chunks = [];
    this.#bytes = 0;
  }

  /** The line of these pieces, in the reader's buffer when it fits: valid until the next line is read. */
  #joined(pieces: Buffer[], bytes: number): Buffer {
    if (bytes > SCRATCH_MAX_BYTES) return Buffer.concat(pieces, bytes);
    if (this.#scratch === undefined || this.#scratch.length < bytes)
      // Grown by doubling, so a flood of lines of growing length allocates it a few times only.
      this.#scratch = Buffer.allocUnsafeSlow(
        Math.min(SCRATCH_MAX_BYTES, Math.max(bytes, 2 * (this.#scratch?.length ?? 32 * 1024)))
      );
    let at = 0;
    for (const piece of pieces) at += piece.copy(this.#scratch, at);
    return this.#scratch.subarray(0, bytes);
  }

  /**
   * A line's text, or undefined when it is refused unparsed (a large request over the budget) or
   * blank. A line of ASCII only (what MCP traffic mostly is: JSON escapes what is not) is decoded
   * as Latin-1, the same text at a third of UTF-8's cost here (0.26 ms for 1 MB against 0.75),
   * after `isAscii` has checked it (0.01 ms).
   */
  #decode(line: Buffer): Decoded | undefined {
    const large = line.length >= LARGE_LINE_BYTES;
    if (large) {
      const refusal = this.#overBudget(line);
      if (refusal) {
        this.#refuse(refusal);
        this.#refusedBytes(line.length);
        return undefined;
      }
    }
    // A CRLF line's CR is left out of the text rather than cut off it (a second string per line).
    const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
    const ascii = large && isAscii(line);
    const text = ascii ? line.toString('latin1', 0, end) : line.toString('utf8', 0, end);
    if (BLANK.test(text)) return undefined;
    // Its strings need no escape in JSON (see `vouchEscapeFree`): memchr speed, 0.03 ms a megabyte.
    const escapeFree = large && line.indexOf(BACKSLASH) < 0;
    return { text, bytes: line.length, ascii, escapeFree };
  }

  /** The message of a decoded line, or undefined when it is refused (answered) or dropped. */
  #parse({ text, bytes, ascii, escapeFree }: Decoded): JSONRPCMessage | undefined {
    const large = bytes >= LARGE_LINE_BYTES;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#refuse({
        id: null,
        error: { code: JsonRpcCode.ParseError, message: `Parse error: ${(error as Error).message.slice(0, 200)}` }
      });
      if (large) this.#refusedBytes(bytes);
      return undefined;
    }
    const refusal = envelopeRefusal(value, this.#limits.maxDepth);
    if (refusal) {
      this.#refuse(refusal);
      if (large) this.#refusedBytes(bytes);
      return undefined;
    }
    // A request passed the SDK's request schema in envelopeRefusal: no second parse.
    if (isRequestShaped(value)) {
      if (large) this.#large.drain(LARGE_KEY, bytes);
      if (escapeFree) vouchLongStrings(value, ascii);
      return value as JSONRPCMessage;
    }
    const message = asJsonRpcMessage(value);
    if (message) {
      if (escapeFree) vouchLongStrings(message, ascii);
      return message;
    }
    const id = readableId(value);
    if (id !== undefined && !('method' in (value as object)))
      return answerFailed(id, "The server's answer is not a well-formed JSON-RPC response");
    this.#hooks.dropped(new Error('The server sent a malformed JSON-RPC notification; it was ignored'));
    if (large) this.#refusedBytes(bytes);
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
    this.#refusedBytes(bytes);
    return undefined;
  }

  /**
   * A large request line beyond the budget, refused from what {@link scanTopLevel} reads of it,
   * unparsed. Anything else (within the budget, a response, a notification, an id only
   * `JSON.parse` can read) is parsed as usual; a request that is parsed is charged afterwards.
   */
  #overBudget(line: Buffer): Refusal | undefined {
    // A line larger than the whole burst is read when the bucket is full (and empties it): it can
    // never hold more, and the receiver then answers what is too large as such.
    const wait = this.#large.peek(LARGE_KEY, Math.min(line.length, this.#limits.largeRequestBurstBytes));
    if (wait === 0) return undefined;
    const top = scanTopLevel(line);
    if (!top?.hasMethod || top.id === undefined) return undefined;
    const rate = this.#limits.largeRequestBytesPerSecond;
    return {
      id: top.id,
      error: {
        code: JsonRpcCode.TooManyRequests,
        message: `Too many request bytes: this server sends more than ${rate} bytes a second in large requests; retry in ${wait} ms`,
        data: { retryAfterMs: wait, bytes: line.length, limit: rate }
      }
    };
  }

  #refuse(refusal: Refusal): void {
    this.#hooks.reply(errorResponse(refusal));
  }

  /**
   * Counts a large line that was not delivered (a request over the budget or the line limit, one
   * that is not JSON or not JSON-RPC, a broken notification); past the refusals' budget, reading
   * waits until another line of its size fits. Answers to Taskdesk's own requests never count.
   */
  #refusedBytes(bytes: number): void {
    this.#refused.drain(LARGE_KEY, bytes);
    const wait = this.#refused.peek(LARGE_KEY, Math.min(bytes, this.#limits.refusedRequestBurstBytes));
    if (wait > 0) this.#hooks.throttle?.(wait);
  }
}

/** The large-request budget's one key. */
const LARGE_KEY = 'server';

const CR = 13;
const BACKSLASH = 0x5c;

/** The most values {@link vouchLongStrings} looks at in one message. */
const VOUCH_WALK_MAX = 1024;

/**
 * Vouches for the long strings of a message parsed from a line with no backslash (see
 * `vouchEscapeFree`), looking at {@link VOUCH_WALK_MAX} values at most: a message of a
 * megabyte of small values gains nothing from it.
 */
function vouchLongStrings(value: unknown, ascii: boolean): void {
  const stack: unknown[] = [value];
  let taken = 1;
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') vouchEscapeFree(next, ascii);
    else if (typeof next === 'object' && next !== null)
      for (const item of Array.isArray(next) ? next : Object.values(next)) {
        if (taken++ >= VOUCH_WALK_MAX) return;
        stack.push(item);
      }
  }
}

/** A line of nothing but whitespace (what `trim` removes), tested without making a trimmed copy. */
const BLANK = /^\s*$/;

/** A line that costs enough to read that it gets a turn of its own (one over the limit is only skipped). */
function isLarge(line: Line): boolean {
  if (Buffer.isBuffer(line)) return line.length >= LARGE_LINE_BYTES;
  return 'pieces' in line && line.bytes >= LARGE_LINE_BYTES;
}

function isRequestShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'method' in value && 'id' in value;
}

/** An error answer delivered to the client for its own request whose real answer could not be read. */
function answerFailed(id: string | number, message: string): JSONRPCMessage {
  return errorResponse({ id, error: { code: JsonRpcCode.InternalError, message } });
}
