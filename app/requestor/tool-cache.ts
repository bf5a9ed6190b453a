import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { RequestorTool } from '../contract/outbound-tasks.js';
import { acceptsTaskCalls, type Attachment } from './attachments.js';
import { checkResultType } from './result-type.js';
import { toHostError } from './task-rpc.js';
import { signInRefusal } from './sign-in-refusal.js';
import { requestorToolView } from './tool-call-mode.js';
import { paramHeadersOf } from '../mcp/param-headers.js';

/** A server's tools as last read, and until when they may be used without reading them again. */
interface Listed {
  tools: Map<string, Tool>;
  /** A 2025-11-25 server's list: until the server says it changed (or a refresh); a 2026-07-28 one's: its `ttlMs`. */
  freshUntil: number;
}

/**
 * The tools each attached server listed, read again on request, once the server says they
 * changed, or (a 2026-07-28 server) once the list's freshness ran out.
 *
 * A 2026-07-28 server says how long each page of its list stays fresh (`ttlMs`, the caching
 * utility): the list is used until its first page goes stale, then read again at its next use,
 * not polled. A page without `ttlMs` (or with a negative one) is stale at once, as the revision
 * says a client should assume; reads asked for while one is on its way share it, so the
 * assistant's fifty conversations offering a server's tools make one `tools/list`. When a read
 * of a stale list fails, the stale list is used (the revision allows it) unless the person asked
 * for a fresh one (Refresh tools).
 *
 * Kept per attachment, so a server that attaches again starts with no cache.
 */
export class ToolCache {
  readonly #lists = new WeakMap<Attachment, Listed>();
  /** A read of an attachment's list on its way, that uses of a stale or missing list wait for. */
  readonly #reading = new WeakMap<Attachment, Promise<Map<string, Tool>>>();
  /**
   * How many times each attachment's list was forgotten: a list read while the server said its
   * tools changed may be the old one, and is not kept (the next read asks again).
   */
  readonly #generations = new WeakMap<Attachment, number>();
  /** Reads begun, counted; and for each attachment, the count of the read its list came from. */
  #reads = 0;
  readonly #landed = new WeakMap<Attachment, number>();
  readonly #timeoutMs: number;
  readonly #clock: Clock;

  /** `timeoutMs` bounds each `tools/list` request; `clock` tells when a 2026-07-28 list goes stale. */
  constructor(timeoutMs: number, clock: Clock = systemClock) {
    this.#timeoutMs = timeoutMs;
    this.#clock = clock;
  }

  /**
   * The server's tools by name: the cached list while it is fresh, else every page read again
   * (always when `refresh`).
   */
  async tools(attachment: Attachment, refresh: boolean): Promise<Map<string, Tool>> {
    const cached = this.#lists.get(attachment);
    if (cached && !refresh && this.#clock.now() < cached.freshUntil) return cached.tools;
    const reading = this.#reading.get(attachment);
    const read = reading && !refresh ? reading : this.#startRead(attachment);
    if (refresh || !cached) return read;
    // A stale list beats none when the server cannot be asked now; a refresh says why it failed.
    return read.catch(() => cached.tools);
  }

  /** Starts reading the list; uses that do not ask for a fresh one share it until it settles. */
  #startRead(attachment: Attachment): Promise<Map<string, Tool>> {
    const read = this.#read(attachment);
    this.#reading.set(attachment, read);
    const forget = () => {
      if (this.#reading.get(attachment) === read) this.#reading.delete(attachment);
    };
    read.then(forget, forget);
    return read;
  }

  /**
   * Every page of the server's list, kept when the server did not say meanwhile that it changed
   * and no read begun later has landed first (a Refresh beside an older read).
   */
  async #read(attachment: Attachment): Promise<Map<string, Tool>> {
    const generation = this.#generations.get(attachment) ?? 0;
    const begun = ++this.#reads;
    const tools = new Map<string, Tool>();
    // A 2025-11-25 server that declared no `tools` has none: asking would only get −32601.
    if (!attachment.modern && !attachment.client.getServerCapabilities()?.tools) {
      this.#lists.set(attachment, { tools, freshUntil: Infinity });
      return tools;
    }
    let freshUntil = Infinity;
    let cursor: string | undefined;
    try {
      do {
        const params = cursor === undefined ? {} : { cursor };
        let page;
        if (attachment.modern) {
          const answer = checkResultType(
            'tools/list',
            await attachment.modern.request('tools/list', params, { tasks: true, timeout: this.#timeoutMs }),
            { tasks: true },
            attachment.serverName
          );
          // Each page is fresh for its own ttlMs from when it came (none or negative: stale at once).
          const ttlMs = (answer as { ttlMs?: unknown }).ttlMs;
          freshUntil = Math.min(
            freshUntil,
            this.#clock.now() + (typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0 ? ttlMs : 0)
          );
          page = ListToolsResultSchema.parse(answer);
        } else
          page = await attachment.client.request({ method: 'tools/list', params }, ListToolsResultSchema, {
            timeout: this.#timeoutMs
          });
        for (const tool of page.tools) {
          // A 2026-07-28 tool with invalid x-mcp-header annotations must not be used (SEP-2243): it is not listed.
          if (attachment.modern && !paramHeadersOf(tool.inputSchema).ok) continue;
          tools.set(tool.name, tool);
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      // Refused for want of a sign-in: said as such, so that a call waiting on this list waits for it.
      throw signInRefusal(error) ?? toHostError(error);
    }
    if ((this.#generations.get(attachment) ?? 0) === generation && begun > (this.#landed.get(attachment) ?? 0)) {
      this.#lists.set(attachment, { tools, freshUntil });
      this.#landed.set(attachment, begun);
    }
    return tools;
  }

  /** The server said its tools changed (`notifications/tools/list_changed`): the next use reads them again. */
  forget(attachment: Attachment): void {
    this.#lists.delete(attachment);
    // A read on its way may hold the old list: the next use asks again, not it.
    this.#reading.delete(attachment);
    this.#generations.set(attachment, (this.#generations.get(attachment) ?? 0) + 1);
  }

  /** One tool: from the cache, or from a fresh list when the cache does not have it. */
  async find(attachment: Attachment, name: string): Promise<Tool | undefined> {
    return (await this.tools(attachment, false)).get(name) ?? (await this.tools(attachment, true)).get(name);
  }

  /** The server's tools as the host shows them, each with how it will be called. */
  async views(attachment: Attachment, refresh: boolean): Promise<RequestorTool[]> {
    const tools = await this.tools(attachment, refresh);
    const acceptsTasks = acceptsTaskCalls(attachment);
    return [...tools.values()].map((tool) =>
      attachment.modern ? modernToolView(tool, acceptsTasks) : requestorToolView(tool, acceptsTasks)
    );
  }
}

/**
 * A 2026-07-28 tool as the host shows it: tools declare no task support there, the server
 * decides per call, so every tool reads `optional` (`task-or-plain`) on a server with the tasks
 * extension and `plain` on one without.
 */
function modernToolView(tool: Tool, serverAcceptsTasks: boolean): RequestorTool {
  const { execution: _ignored, ...rest } = tool;
  return requestorToolView({ ...rest, execution: { taskSupport: 'optional' } }, serverAcceptsTasks);
}
