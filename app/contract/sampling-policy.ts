import { z } from 'zod';

/**
 * How Taskdesk treats sampling requests from one server.
 *
 * - `ask` (default): a person approves each request, and may edit it or pick the model;
 * - `auto`: requests go to the chosen model without asking;
 * - `refuse`: every request is answered with an error, no model is called.
 *
 * `reviewCompletion` shows the generated answer to a person before it goes back to the
 * server. It defaults to true because the spec says clients SHOULD present responses
 * for review before delivery; a user can turn it off per server.
 */
export const SamplingPolicySchema = z.object({
  mode: z.enum(['ask', 'auto', 'refuse']).default('ask'),
  reviewCompletion: z.boolean().default(true)
});
export type SamplingPolicy = z.infer<typeof SamplingPolicySchema>;

/** The policy a server without settings gets. */
export const defaultSamplingPolicy: SamplingPolicy = SamplingPolicySchema.parse({});

/** The message MCP clients answer a person's rejection with (kept with the code, in a module without zod). */
export { userRejectedMessage } from './rejected-sampling.js';
