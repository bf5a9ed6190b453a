import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { PolicySamplingRunner } from '../../../app/sampling/policy-sampling-runner.js';
import type { OriginLookup } from '../../../app/inbox/inbox-runners.js';
import type { ApprovalDecision, ApprovalGate } from '../../../app/sampling/approval-gate.js';
import type { SamplingAuditEvent } from '../../../app/sampling/sampling-audit.js';
import { SamplingPolicySchema, type SamplingPolicy } from '../../../app/contract/sampling-policy.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { makeContext, makeRunner, samplingParams, SECRET_KEY } from './harness.js';
import { ScriptedApprovalGate, unreachableGate } from './scripted-approval-gate.js';

/**
 * A model request a server asks for one of Taskdesk's own calls: every `sampling.*` entry of it
 * names where it came from (the call's tool, prompt or resource), as its Inbox item does.
 */
describe('the origin of a model request in its audit entries', { timeout: 15_000 }, () => {
  let server: FakeOpenAIServer;
  before(async () => {
    server = await FakeOpenAIServer.start({ apiKey: SECRET_KEY });
  });
  after(() => server.close());

  /** Calls of Taskdesk's that are running, by related id: what the host's lookup answers from. */
  function runningCalls() {
    const calls = new Map<string, { words: string; call: boolean }>();
    const asked: Array<[string, string]> = [];
    const origin: OriginLookup = (serverId, relatedTaskId) => {
      asked.push([serverId, relatedTaskId]);
      return serverId === 'srv-1' ? calls.get(relatedTaskId) : undefined;
    };
    return { calls, asked, origin };
  }

  async function setup(policy: Partial<SamplingPolicy>, gate: ApprovalGate, origin: OriginLookup) {
    const { runner: sampler } = await makeRunner(server, { apiKey: SECRET_KEY });
    const audit: SamplingAuditEvent[] = [];
    const runner = new PolicySamplingRunner({
      sampler,
      gate,
      policyFor: () => SamplingPolicySchema.parse(policy),
      audit: (event) => audit.push(event),
      clock: new ManualClock(Date.UTC(2026, 5, 1)),
      origin
    });
    return { runner, audit };
  }

  const origins = (audit: SamplingAuditEvent[]) =>
    audit.map((entry) => [`${entry.type}:${entry.decision}`, entry.origin, entry.relatedCall]);

  it('names it on a request refused by policy', async () => {
    const { calls, origin } = runningCalls();
    calls.set('out-1', { words: 'tool research', call: false });
    const { runner, audit } = await setup({ mode: 'refuse' }, unreachableGate, origin);
    const outcome = await runner.run(samplingParams(), makeContext({ relatedTaskId: 'out-1' }).context);
    assert.equal(outcome.type, 'error');
    assert.deepEqual(origins(audit), [['sampling.request:refused', 'tool research', undefined]]);
  });

  it('names it on the request and the model call made without asking, and says a call is not a task', async () => {
    const { calls, origin } = runningCalls();
    calls.set('exchange-1', { words: 'tool draft', call: true });
    const { runner, audit } = await setup({ mode: 'auto', reviewCompletion: false }, unreachableGate, origin);
    server.enqueue({ kind: 'text', tokens: ['Blue'] });
    const outcome = await runner.run(samplingParams(), makeContext({ relatedTaskId: 'exchange-1' }).context);
    assert.equal(outcome.type, 'result');
    assert.deepEqual(origins(audit), [
      ['sampling.request:auto-approved', 'tool draft', true],
      ['sampling.llm:completed', 'tool draft', true]
    ]);
  });

  it('names it on a person’s approval, the model call and their review, and never the answer', async () => {
    const { calls, asked, origin } = runningCalls();
    calls.set('out-2', { words: 'prompt greeting', call: false });
    const gate = new ScriptedApprovalGate();
    const { runner, audit } = await setup({ mode: 'ask', reviewCompletion: true }, gate, origin);
    server.enqueue({ kind: 'text', tokens: ['Paris.'] });
    const running = runner.run(samplingParams(), makeContext({ relatedTaskId: 'out-2' }).context);
    (await gate.approvals.next()).approve();
    (await gate.reviews.next()).approve();
    assert.equal((await running).type, 'result');
    assert.deepEqual(origins(audit), [
      ['sampling.request:approved', 'prompt greeting', undefined],
      ['sampling.llm:completed', 'prompt greeting', undefined],
      ['sampling.completion:approved', 'prompt greeting', undefined]
    ]);
    assert.deepEqual(asked, [['srv-1', 'out-2']], 'looked up once, as the request came in');
    assert.doesNotMatch(JSON.stringify(audit), /Paris/);
  });

  it('still names it on a request withdrawn once its call has ended', async () => {
    const { calls, origin } = runningCalls();
    calls.set('out-3', { words: 'tool slow', call: false });
    let withdraw: (decision: ApprovalDecision) => void = () => undefined;
    const gate: ApprovalGate = {
      requestApproval: () => new Promise((resolve) => (withdraw = resolve)),
      reviewCompletion: () => Promise.reject(new Error('nothing to review'))
    };
    const { runner, audit } = await setup({ mode: 'ask', reviewCompletion: false }, gate, origin);
    const running = runner.run(samplingParams(), makeContext({ relatedTaskId: 'out-3' }).context);
    // The call ends (the lookup no longer answers for it), and Taskdesk withdraws its request.
    calls.delete('out-3');
    withdraw({ decision: 'withdrawn', reason: 'The task it was asked for (tool slow) was cancelled by you.' });
    assert.equal((await running).type, 'error');
    assert.deepEqual(origins(audit), [['sampling.request:withdrawn', 'tool slow', undefined]]);
  });

  it('names nothing for a request asked for no call of Taskdesk’s, nor for a call it no longer knows', async () => {
    const { calls, asked, origin } = runningCalls();
    calls.set('out-4', { words: 'tool research', call: false });
    const { runner, audit } = await setup({ mode: 'auto', reviewCompletion: false }, unreachableGate, origin);
    server.enqueue({ kind: 'text', tokens: ['Blue'] }, { kind: 'text', tokens: ['Green'] });
    await runner.run(samplingParams(), makeContext().context);
    await runner.run(samplingParams(), makeContext({ relatedTaskId: 'out-gone' }).context);
    assert.deepEqual(asked, [['srv-1', 'out-gone']], 'nothing to look up without a related task');
    assert.deepEqual(origins(audit), [
      ['sampling.request:auto-approved', undefined, undefined],
      ['sampling.llm:completed', undefined, undefined],
      ['sampling.request:auto-approved', undefined, undefined],
      ['sampling.llm:completed', undefined, undefined]
    ]);
    for (const entry of audit) assert.ok(!('origin' in entry) && !('relatedCall' in entry));
  });
});
