import { z } from 'zod';

/** Error data, as it crosses every boundary. MCP error codes pass through unchanged. */
export const ErrorDataSchema = z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() });
export type ErrorData = z.infer<typeof ErrorDataSchema>;
