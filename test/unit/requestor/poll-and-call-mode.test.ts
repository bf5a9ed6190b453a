import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLL_POLICY, nextBackoffMs, pollIntervalMs } from '../../../app/requestor/poll-policy.js';
import { decideCall, decideRetry, taskSupportOf, toolCallMode } from '../../../app/requestor/tool-call-mode.js';
import { describeProblems, splitAjvErrors, ArgumentValidator } from '../../../app/requestor/argument-validator.js';

test('the receiver pollInterval is used as given, with a floor against 0', () => {
  assert.equal(pollIntervalMs(DEFAULT_POLL_POLICY, 2500, 1000), 2500);
  assert.equal(pollIntervalMs(DEFAULT_POLL_POLICY, 0, 1000), 100);
  assert.equal(pollIntervalMs(DEFAULT_POLL_POLICY, undefined, 4000), 4000);
});

test('the backoff doubles to 10 s without changes and resets on a change', () => {
  let backoff = DEFAULT_POLL_POLICY.initialMs;
  const seen = [];
  for (let i = 0; i < 6; i++) {
    seen.push(backoff);
    backoff = nextBackoffMs(DEFAULT_POLL_POLICY, backoff, false);
  }
  assert.deepEqual(seen, [1000, 2000, 4000, 8000, 10_000, 10_000]);
  assert.equal(nextBackoffMs(DEFAULT_POLL_POLICY, 10_000, true), 1000);
});

test('capability gates everything; then taskSupport decides, absent meaning forbidden', () => {
  assert.equal(taskSupportOf({}), 'forbidden');
  assert.equal(toolCallMode(false, 'required'), 'unavailable');
  assert.equal(toolCallMode(false, 'optional'), 'plain');
  assert.equal(toolCallMode(true, 'required'), 'task');
  assert.equal(toolCallMode(true, 'optional'), 'task-or-plain');
  assert.equal(toolCallMode(true, 'forbidden'), 'plain');
  assert.deepEqual(decideCall('task-or-plain', 't', 's', undefined), { type: 'task' });
  assert.deepEqual(decideCall('task-or-plain', 't', 's', false), { type: 'plain' });
  assert.equal(decideCall('task', 't', 's', false).type, 'refused');
  assert.equal(decideCall('plain', 't', 's', true).type, 'refused');
  assert.equal(decideCall('unavailable', 't', 's', undefined).type, 'refused');
});

test('a call sent again after its link goes as the server and the tool allow now, not as it was sent', () => {
  // The server no longer declares tasks, or the tool no longer allows one: plain, whatever was sent.
  assert.deepEqual(decideRetry(toolCallMode(false, 'optional'), 't', 's', true), { type: 'plain' });
  assert.deepEqual(decideRetry(toolCallMode(true, 'forbidden'), 't', 's', true), { type: 'plain' });
  // The tool now requires a task: a task, though the first call went plainly.
  assert.deepEqual(decideRetry(toolCallMode(true, 'required'), 't', 's', false), { type: 'task' });
  // Both allowed: as it was sent.
  assert.deepEqual(decideRetry('task-or-plain', 't', 's', true), { type: 'task' });
  assert.deepEqual(decideRetry('task-or-plain', 't', 's', false), { type: 'plain' });
  // A task required where the server takes none: not sent, said in words.
  assert.deepEqual(decideRetry(toolCallMode(false, 'required'), 'sync', 'Files', true), {
    type: 'refused',
    reason:
      'Tool "sync" on "Files" now must be called as a task, but the server no longer accepts tasks ' +
      '(tasks.requests.tools.call), so the call was not sent again.'
  });
});

test('argument problems are reported per field', () => {
  const validator = new ArgumentValidator();
  const schema = {
    type: 'object',
    properties: {
      topic: { type: 'string' },
      depth: { type: 'integer', minimum: 1 },
      nested: { type: 'object', properties: { a: { type: 'boolean' } } }
    },
    required: ['topic']
  };
  assert.deepEqual(validator.validate(schema, { topic: 'x', depth: 2 }), []);
  const problems = validator.validate(schema, { depth: 0, nested: { a: 'yes' } });
  assert.deepEqual(problems.map((p) => p.path).sort(), ['', '/depth', '/nested/a']);
  assert.match(describeProblems(problems), /\(arguments\): must have required property 'topic'/);
  assert.match(describeProblems(problems), /nested\.a: must be boolean/);
  assert.deepEqual(splitAjvErrors("data/a must be string, data must have required property 'b'"), [
    { path: '/a', message: 'must be string' },
    { path: '', message: "must have required property 'b'" }
  ]);
});
