import { z } from 'zod';
import { ElicitRequestFormParamsSchema, ElicitRequestURLParamsSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The params of the input requests a 2026-07-28 server embeds (in a task's `inputRequests` or an
 * `InputRequiredResult`), as that revision's schema defines them. Unknown fields are kept.
 *
 * The SDK's schemas are those of 2025-11-25, which this revision loosened for sampling (a tool's
 * `inputSchema` and `outputSchema` take any JSON Schema 2020-12 keywords, `structuredContent` any
 * JSON value): sampling has a schema of its own here. Elicitation is the same in both revisions,
 * except that URL mode has no `elicitationId` in 2026-07-28.
 */

const Annotated = { _meta: z.record(z.string(), z.unknown()).optional() };

const TextContent = z.looseObject({ type: z.literal('text'), text: z.string(), ...Annotated });
const ImageContent = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string(), ...Annotated });
const AudioContent = z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), ...Annotated });
const ToolUseContent = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  ...Annotated
});
const ToolResultContent = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(z.looseObject({ type: z.string() })),
  isError: z.boolean().optional(),
  ...Annotated
});

const SamplingContentBlock = z.discriminatedUnion('type', [
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent
]);

const SamplingMessage = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([SamplingContentBlock, z.array(SamplingContentBlock)]),
  ...Annotated
});

const SamplingTool = z.looseObject({
  name: z.string(),
  inputSchema: z.looseObject({ type: z.literal('object') }),
  outputSchema: z.looseObject({}).optional()
});

/** `sampling/createMessage` params of MCP 2026-07-28. */
export const SamplingInputParamsSchema = z.looseObject({
  messages: z.array(SamplingMessage),
  maxTokens: z.number().int(),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(['none', 'thisServer', 'allServers']).optional(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  metadata: z.looseObject({}).optional(),
  modelPreferences: z.looseObject({}).optional(),
  tools: z.array(SamplingTool).optional(),
  toolChoice: z.looseObject({ mode: z.enum(['auto', 'required', 'none']).optional() }).optional()
});

/** `elicitation/create` params of a form (mode `form`, or none). */
export const FormElicitationParamsSchema = ElicitRequestFormParamsSchema;

/** `elicitation/create` params in URL mode: 2026-07-28 has no `elicitationId`. */
export const UrlElicitationParamsSchema = ElicitRequestURLParamsSchema.omit({ elicitationId: true });
