import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSONRPCMessageSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { asJsonRpcMessage, envelopeRefusal } from '../../../app/mcp/jsonrpc-checks.js';

const related = 'io.modelcontextprotocol/related-task';

/** Messages as a server may send them, well-formed or not, each as the JSON line it arrives as. */
const lines: string[] = [
  // Result responses: the shape of every poll's answer, and what may be wrong with one.
  '{"jsonrpc":"2.0","id":7,"result":{"taskId":"t","status":"working","ttl":null}}',
  '{"id":"r-1","result":{},"jsonrpc":"2.0"}',
  '{"jsonrpc":"2.0","id":0,"result":{"content":[{"type":"text","text":"x"}]}}',
  `{"jsonrpc":"2.0","id":3,"result":{"_meta":{"${related}":{"taskId":"t"}},"content":[]}}`,
  `{"jsonrpc":"2.0","id":3,"result":{"_meta":{"${related}":{"taskId":"t","extra":1},"other":[1]}}}`,
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":{"progressToken":"p"}}}',
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":{"progressToken":5}}}',
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":{"progressToken":1.5}}}',
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":{"progressToken":null}}}',
  `{"jsonrpc":"2.0","id":3,"result":{"_meta":{"${related}":{"taskId":4}}}}`,
  `{"jsonrpc":"2.0","id":3,"result":{"_meta":{"${related}":"t"}}}`,
  `{"jsonrpc":"2.0","id":3,"result":{"_meta":{"${related}":null}}}`,
  `{"jsonrpc":"2.0","id":3,"result":{"_meta":{"${related}":[]}}}`,
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":[]}}',
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":null}}',
  '{"jsonrpc":"2.0","id":3,"result":{"_meta":"x"}}',
  '{"jsonrpc":"2.0","id":3,"result":{"__proto__":{"x":1},"a":1}}',
  '{"jsonrpc":"2.0","id":3,"result":"not an object"}',
  '{"jsonrpc":"2.0","id":3,"result":[]}',
  '{"jsonrpc":"2.0","id":3,"result":null}',
  '{"jsonrpc":"2.0","id":1.5,"result":{}}',
  '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
  '{"jsonrpc":"2.0","id":-4,"result":{}}',
  '{"jsonrpc":"2.0","id":null,"result":{}}',
  '{"jsonrpc":"2.0","id":true,"result":{}}',
  '{"jsonrpc":"2.0","result":{}}',
  '{"jsonrpc":"1.0","id":3,"result":{}}',
  '{"id":3,"result":{}}',
  '{"jsonrpc":"2.0","id":3,"result":{},"extra":true}',
  '{"jsonrpc":"2.0","id":3,"result":{},"__proto__":{}}',
  '{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}',
  '{"jsonrpc":"2.0","id":3,"result":{},"method":"m"}',
  // Error responses.
  '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad","data":{"x":1}}}',
  '{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse"}}',
  '{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"m"}}',
  '{"jsonrpc":"2.0","id":3,"error":{"message":"m"}}',
  '{"jsonrpc":"2.0","id":3,"error":"bad"}',
  '{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m"},"extra":1}',
  // Notifications.
  '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}',
  '{"jsonrpc":"2.0","method":"n/x"}',
  '{"jsonrpc":"2.0","method":"n/x","params":{"_meta":{"progressToken":[]}}}',
  '{"jsonrpc":"2.0","method":"n/x","params":[]}',
  '{"jsonrpc":"2.0","method":5}',
  '{"jsonrpc":"2.0","method":"n/x","extra":1}',
  // Requests.
  '{"jsonrpc":"2.0","id":1,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":"p"}}}',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  '{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}',
  '{"id":"a","method":"tasks/get","params":{"taskId":"t"},"jsonrpc":"2.0"}',
  `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"t","_meta":{"${related}":{"taskId":"t"}}}}`,
  `{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":{"${related}":{"taskId":"t","extra":1}}}}`,
  `{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":{"${related}":{"taskId":4}}}}`,
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":{"progressToken":1.5}}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":{"progressToken":null}}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":{"other":{"deep":[1]}},"x":[{"y":null}]}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":[]}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":null}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"__proto__":{"x":1},"a":1}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":{"__proto__":{}}}}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":null}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":[]}',
  '{"jsonrpc":"2.0","id":2,"method":"m","params":"p"}',
  '{"jsonrpc":"2.0","id":2.5,"method":"m"}',
  '{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}',
  '{"jsonrpc":"2.0","id":-1,"method":"m"}',
  '{"jsonrpc":"2.0","id":true,"method":"m"}',
  '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"1.0","id":1,"method":"m"}',
  '{"id":1,"method":"m"}',
  '{"jsonrpc":"2.0","id":1,"method":"m","__proto__":{}}',
  '{"jsonrpc":"2.0","id":1,"method":"m","result":{}}',
  // Neither.
  '{"jsonrpc":"2.0","id":3}',
  '{}',
  '[]',
  '[{"jsonrpc":"2.0","method":"n/x"}]',
  '"text"',
  '42',
  'null'
];

describe('reading a JSON-RPC envelope', () => {
  for (const line of lines) {
    it(`gives the SDK union's verdict and data for ${line.slice(0, 90)}`, () => {
      const union = JSONRPCMessageSchema.safeParse(JSON.parse(line));
      const ours = asJsonRpcMessage(JSON.parse(line));
      assert.equal(ours !== undefined, union.success, union.success ? 'the union accepts it' : 'the union refuses it');
      if (union.success) assert.deepEqual(JSON.parse(JSON.stringify(ours)), JSON.parse(JSON.stringify(union.data)));
    });
  }

  for (const line of lines.filter((text) => /"method"/.test(text) && /"id"/.test(text))) {
    it(`refuses a request exactly when the SDK's request schema does: ${line.slice(0, 90)}`, () => {
      const schema = JSONRPCRequestSchema.safeParse(JSON.parse(line));
      assert.equal(envelopeRefusal(JSON.parse(line), 128) === undefined, schema.success);
    });
  }

  it('hands a plain request on as it was read, without a copy', () => {
    const value: unknown = JSON.parse(
      '{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"taskId":"t","_meta":{"progressToken":1}}}'
    );
    assert.equal(asJsonRpcMessage(value), value);
  });

  it('hands a plain result response on as it was read, without a copy', () => {
    const value: unknown = JSON.parse('{"jsonrpc":"2.0","id":7,"result":{"taskId":"t","status":"working"}}');
    assert.equal(asJsonRpcMessage(value), value);
  });
});
