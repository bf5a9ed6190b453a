import assert from 'node:assert/strict';
import type { z } from 'zod';
import { describe, it } from 'node:test';
import { GetTaskPayloadResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { LeanGetTaskPayloadResultSchema, LeanGetTaskResultSchema } from '../../../app/mcp/lean-schemas.js';

const related = 'io.modelcontextprotocol/related-task';
const base =
  '"taskId":"t","status":"working","ttl":60000,"createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:01Z"';

/** `tasks/get` answers as a receiver may send them, well-formed or not, as the JSON they arrive as. */
const answers: string[] = [
  `{${base}}`,
  `{${base},"pollInterval":500,"statusMessage":"busy"}`,
  '{"taskId":"t","status":"completed","ttl":null,"createdAt":"a","lastUpdatedAt":"b"}',
  `{${base},"_meta":{"progressToken":3,"${related}":{"taskId":"t"},"other":{"x":[1]}}}`,
  `{${base},"_meta":{"${related}":{"taskId":"t","extra":1}}}`,
  `{${base},"_meta":{"progressToken":1.5}}`,
  `{${base},"_meta":{"__proto__":{"x":1}}}`,
  `{${base},"_meta":[]}`,
  `{${base},"_meta":null}`,
  `{${base},"extra":true}`,
  `{${base},"__proto__":{"status":"completed"}}`,
  `{${base},"pollInterval":"500"}`,
  `{${base},"pollInterval":null}`,
  `{${base},"statusMessage":5}`,
  '{"taskId":"t","status":"done","ttl":1,"createdAt":"a","lastUpdatedAt":"b"}',
  '{"taskId":"t","status":"working","ttl":"soon","createdAt":"a","lastUpdatedAt":"b"}',
  '{"taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"b"}',
  '{"taskId":7,"status":"working","ttl":1,"createdAt":"a","lastUpdatedAt":"b"}',
  '{"status":"working","ttl":1,"createdAt":"a","lastUpdatedAt":"b"}',
  '{"taskId":"t","status":"working","ttl":1,"createdAt":1,"lastUpdatedAt":"b"}',
  '{"taskId":"t","status":"working","ttl":1,"createdAt":"a"}',
  '[]',
  'null',
  '"t"'
];

describe('a tasks/get answer read without a copy', () => {
  for (const answer of answers) {
    it(`gives GetTaskResultSchema's verdict, data and issues for ${answer.slice(0, 100)}`, () =>
      assertSameVerdict(GetTaskResultSchema, LeanGetTaskResultSchema, answer));
  }

  it('hands a well-formed answer on as it was read', () => {
    const value: unknown = JSON.parse(`{${base},"pollInterval":500}`);
    const parsed = LeanGetTaskResultSchema.safeParse(value);
    assert.equal(parsed.data, value);
  });

  it('refuses an infinite ttl as the schema does (JSON cannot carry one, a caller can)', () => {
    const value = { taskId: 't', status: 'working', ttl: Infinity, createdAt: 'a', lastUpdatedAt: 'b' };
    assert.equal(LeanGetTaskResultSchema.safeParse(value).success, GetTaskResultSchema.safeParse(value).success);
  });
});

/** `tasks/result` answers: any result, with the SDK's `_meta`. */
const payloads: string[] = [
  '{"content":[{"type":"text","text":"done"}],"isError":false}',
  '{}',
  `{"content":[],"_meta":{"${related}":{"taskId":"t"}}}`,
  `{"content":[],"_meta":{"${related}":{"taskId":"t","extra":1}}}`,
  `{"content":[],"_meta":{"${related}":{"taskId":1}}}`,
  '{"content":[],"_meta":{"progressToken":"p","other":true}}',
  '{"content":[],"_meta":{"progressToken":0.5}}',
  '{"content":[],"_meta":"x"}',
  '{"__proto__":{"x":1},"content":[]}',
  '{"content":[{"__proto__":{"x":1}}]}',
  '[]',
  'null',
  '3'
];

describe('a tasks/result answer read without a copy', () => {
  for (const payload of payloads) {
    it(`gives GetTaskPayloadResultSchema's verdict, data and issues for ${payload.slice(0, 100)}`, () =>
      assertSameVerdict(GetTaskPayloadResultSchema, LeanGetTaskPayloadResultSchema, payload));
  }
});

/** The lean schema gives the SDK schema's verdict on `text`'s value: the same data, or the same issues. */
function assertSameVerdict(sdkSchema: z.ZodType, leanSchema: z.ZodType, text: string): void {
  const sdk = sdkSchema.safeParse(JSON.parse(text));
  const lean = leanSchema.safeParse(JSON.parse(text));
  assert.equal(lean.success, sdk.success);
  if (sdk.success) assert.deepEqual(lean.data, sdk.data);
  else
    assert.deepEqual(
      lean.error?.issues.map((issue) => [issue.code, issue.path]),
      sdk.error.issues.map((issue) => [issue.code, issue.path])
    );
}
