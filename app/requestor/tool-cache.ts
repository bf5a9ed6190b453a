import { ListToolsResultSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RequestorTool } from '../contract/outbound-tasks.js';
import { acceptsTaskCalls, type Attachment } from './attachments.js';
import { checkResultType } from './result-type.js';
import { toHostError } from './task-rpc.js';
import { requestorToolView } from './tool-call-mode.js';
import { paramHeadersOf } from '../mcp/param-headers.js';

/**
 * The tools each attached server listed, read again on request, or once the server says they
 * changed.
 *
 * Kept per attachment, so a server that attaches again starts with no cache.
 */
export class ToolCache {
  readonly #tools = new WeakMap<Attachment, Map<string, Tool>>();
  /**
   * How many times each attachment's list was forgotten: a list read while the server said its
   * tools changed may be the old one, and is not kept (the next read asks again).
   */
  readonly #generations = new WeakMap<Attachment, number>();
  readonly #timeoutMs: number;

  /** `timeoutMs` bounds each `tools/list` request. */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** The server's tools by name: the cached list, or every page read again when `refresh` (or nothing is cached). */
  async tools(attachment: Attachment, refresh: boolean): Promise<Map<string, Tool>> {
    const cached = this.#tools.get(attachment);
    if (cached && !refresh) return cached;
    const generation = this.#generations.get(attachment) ?? 0;
    const tools = new Map<string, Tool>();
    // A 2025-11-25 server that declared no `tools` has none: asking would only get −32601.
    if (!attachment.modern && !attachment.client.getServerCapabilities()?.tools) {
      this.#tools.set(attachment, tools);
      return tools;
    }
    let cursor: string | undefined;
    try {
      do {
        const params = cursor === undefined ? {} : { cursor };
        const page = attachment.modern
          ? ListToolsResultSchema.parse(
              checkResultType(
                'tools/list',
                await attachment.modern.request('tools/list', params, { tasks: true, timeout: this.#timeoutMs }),
                { tasks: true },
                attachment.serverName
              )
            )
          : await attachment.client.request({ method: 'tools/list', params }, ListToolsResultSchema, {
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
      throw toHostError(error);
    }
    if ((this.#generations.get(attachment) ?? 0) === generation) this.#tools.set(attachment, tools);
    return tools;
  }

  /** The server said its tools changed (`notifications/tools/list_changed`): the next use reads them again. */
  forget(attachment: Attachment): void {
    this.#tools.delete(attachment);
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
