import { z } from 'zod';

/**
 * Schemas both the host API contract and the modules it draws on use. Depends on zod alone,
 * so importing it never pulls core code into the renderer.
 */

/** Error data, as it crosses every boundary. MCP error codes pass through unchanged. */
export const ErrorDataSchema = z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() });
export type ErrorData = z.infer<typeof ErrorDataSchema>;

/**
 * Which generation of MCP a server speaks, once connected: `legacy` (an `initialize`
 * handshake, MCP 2025-11-25 and earlier) or `modern` (per-request metadata and
 * `server/discover`, MCP 2026-07-28). The one word internal code uses for it.
 */
export const ProtocolEraSchema = z.enum(['legacy', 'modern']);
export type ProtocolEra = z.infer<typeof ProtocolEraSchema>;

/** A task status (MCP 2025-11-25). */
export const TaskStatusSchema = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** A task's wire state (MCP 2025-11-25 `Task`), whichever side holds it. */
export const TaskViewSchema = z.object({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  /** Milliseconds from creation the receiver keeps the task; null is unlimited. */
  ttl: z.number().nullable(),
  pollInterval: z.number().optional()
});
export type TaskView = z.infer<typeof TaskViewSchema>;
