import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { LeanGetTaskResultSchema } from '../../../app/mcp/lean-schemas.js';

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
    it(`gives GetTaskResultSchema's verdict, data and issues for ${answer.slice(0, 100)}`, () => {
      const sdk = GetTaskResultSchema.safeParse(JSON.parse(answer));
      const lean = LeanGetTaskResultSchema.safeParse(JSON.parse(answer));
      assert.equal(lean.success, sdk.success);
      if (sdk.success) assert.deepEqual(lean.data, sdk.data);
      else
        assert.deepEqual(
          lean.error?.issues.map((issue) => [issue.code, issue.path]),
          sdk.error.issues.map((issue) => [issue.code, issue.path])
        );
    });
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
