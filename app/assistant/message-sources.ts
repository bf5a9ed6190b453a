import {
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ReadResourceResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import type { MessageSource, ResolvedSource, ServerSources } from '../contract/assistant.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { toolResultForModel } from './chat-messages.js';
import type { SourceServer } from './source-server.js';

/** How a source is fetched: the requestor's own `prompts/get` and `resources/read`, in the server's era. */
export interface SourceFetcher {
  getPrompt(serverId: string, name: string, args?: Record<string, string>): Promise<Record<string, unknown>>;
  readResource(serverId: string, uri: string): Promise<Record<string, unknown>>;
}

/** Pages read of a list before it is cut short: a server that pages without end cannot hold the call up. */
const MAX_PAGES = 10;
const TIMEOUT_MS = 30_000;

/**
 * A connected server's prompts and resources, as sources the person may add to a message
 * (`prompts/list` and `resources/list`, each only when the server declared it; to a 2026-07-28
 * server in its envelope).
 */
export async function listSources(server: SourceServer): Promise<ServerSources> {
  const capabilities = server.capabilities;
  const prompts: ServerSources['prompts'] = [];
  const resources: ServerSources['resources'] = [];
  try {
    if (capabilities.prompts) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const listed = ListPromptsResultSchema.parse(
          await server.list('prompts/list', cursor === undefined ? {} : { cursor }, TIMEOUT_MS)
        );
        for (const prompt of listed.prompts)
          prompts.push({
            name: prompt.name,
            ...(prompt.title !== undefined && { title: prompt.title }),
            ...(prompt.description !== undefined && { description: prompt.description }),
            arguments: (prompt.arguments ?? []).map((argument) => ({
              name: argument.name,
              ...(argument.description !== undefined && { description: argument.description }),
              required: argument.required === true
            }))
          });
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
    }
    if (capabilities.resources) {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const listed = ListResourcesResultSchema.parse(
          await server.list('resources/list', cursor === undefined ? {} : { cursor }, TIMEOUT_MS)
        );
        for (const resource of listed.resources)
          resources.push({
            uri: resource.uri,
            name: resource.name,
            ...(resource.description !== undefined && { description: resource.description }),
            ...(resource.mimeType !== undefined && { mimeType: resource.mimeType })
          });
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
    }
  } catch (error) {
    throw new HostError(
      JsonRpcCode.InternalError,
      `The server could not list its prompts or resources: ${toErrorData(error).message}`
    );
  }
  return { prompts, resources };
}

/**
 * Fetches one source for a message: a prompt with its arguments (`prompts/get`, its messages as
 * text with their roles) or a resource (`resources/read`, text contents as they are, binary ones
 * named, images kept for the model). Both go through the requestor, as the Tools screen's do: to
 * a 2026-07-28 server as a multi round-trip request, whose questions wait in the Inbox and whose
 * answers go with the retry. A source that cannot be fetched throws, and the message is not added.
 * Its label names the server as the person does (`serverName`, else its id) and a prompt's arguments.
 */
export async function resolveSource(
  fetcher: SourceFetcher,
  source: MessageSource,
  serverName?: string
): Promise<ResolvedSource> {
  const server = serverName ?? `server ${source.serverId}`;
  try {
    if (source.type === 'prompt') {
      const prompt = GetPromptResultSchema.parse(
        await fetcher.getPrompt(source.serverId, source.name, source.arguments ?? {})
      );
      const images: ResolvedSource['images'] = [];
      const text = prompt.messages
        .map((message) => {
          const mapped = toolResultForModel({ content: [message.content] });
          images.push(...mapped.images);
          return `${message.role}: ${mapped.text}`;
        })
        .join('\n');
      return {
        label: `prompt "${shownTitle(source.title) ?? source.name}" of ${server}${argumentsText(source.arguments)}`,
        text,
        ...(images.length > 0 && { images })
      };
    }
    const read = ReadResourceResultSchema.parse(await fetcher.readResource(source.serverId, source.uri));
    const mapped = toolResultForModel({ content: read.contents.map((resource) => ({ type: 'resource', resource })) });
    return {
      label: `${resourceWords(source)} of ${server}`,
      text: mapped.text,
      ...(mapped.images.length > 0 && { images: mapped.images })
    };
  } catch (error) {
    const what =
      source.type === 'prompt' ? `prompt "${shownTitle(source.title) ?? source.name}"` : resourceWords(source);
    throw new HostError(
      JsonRpcCode.InvalidParams,
      `The ${what} of ${server} could not be fetched: ${toErrorData(error).message}`
    );
  }
}

/** A resource as a label names it: by its title and URI when the picker gave a title (the model reads the URI too). */
function resourceWords(source: Extract<MessageSource, { type: 'resource' }>): string {
  const title = shownTitle(source.title);
  return title === undefined || title === source.uri ? `resource ${source.uri}` : `resource "${title}" (${source.uri})`;
}

/** A title as a label shows it: on one line, at most 120 characters (a server's titles are its own), none when empty. */
function shownTitle(title: string | undefined): string | undefined {
  // One line: a server's title must not add lines to the header the model reads.
  const trimmed = title?.replace(/\s+/g, ' ').trim() ?? '';
  if (trimmed === '') return undefined;
  return trimmed.length > 120 ? `${trimmed.slice(0, 119)}…` : trimmed;
}

/** A prompt's arguments as the label shows them: `, with city = Paris, unit = C` (nothing when none). */
export function argumentsText(args: Record<string, string> | undefined): string {
  const given = Object.entries(args ?? {});
  return given.length === 0 ? '' : `, with ${given.map(([name, value]) => `${name} = ${value}`).join(', ')}`;
}
