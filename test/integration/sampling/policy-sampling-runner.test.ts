import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { HostError, JsonRpcCode, ShuttingDownError } from '../../../app/core/errors.js';
import { PolicySamplingRunner } from '../../../app/sampling/policy-sampling-runner.js';
import { Inbox } from '../../../app/inbox/inbox.js';
import { InboxApprovalGate } from '../../../app/inbox/inbox-approval-gate.js';
import type { SamplingAuditEvent } from '../../../app/sampling/sampling-audit.js';
import type { ApprovalGate } from '../../../app/sampling/approval-gate.js';
import { SamplingPolicySchema, type SamplingPolicy } from '../../../app/contract/sampling-policy.js';
import { lastRanRequest } from '../../../app/contract/request-changes.js';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { makeContext, makeRunner, samplingParams, SECRET_KEY, textOf } from './harness.js';
import { ScriptedApprovalGate, unreachableGate } from './scripted-approval-gate.js';

describe('PolicySamplingRunner', { timeout: 15_000 }, () => {
  let server: FakeOpenAIServer;
  before(async () => {
    server = await FakeOpenAIServer.start({ apiKey: SECRET_KEY });
  });
  after(() => server.close());

  async function setup(
    policy: Partial<SamplingPolicy>,
    gate = new ScriptedApprovalGate() as ScriptedApprovalGate | ApprovalGate
  ) {
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    const { runner: sampler } = await makeRunner(server, { apiKey: SECRET_KEY });
    const audit: SamplingAuditEvent[] = [];
    const policies: string[] = [];
    const runner = new PolicySamplingRunner({
      sampler,
      gate,
      policyFor: (serverId) => {
        policies.push(serverId);
        return SamplingPolicySchema.parse(policy);
      },
      audit: (event) => audit.push(event),
      clock
    });
    return { runner, audit, policies, gate: gate as ScriptedApprovalGate };
  }

  const decisions = (audit: SamplingAuditEvent[]) => audit.map((e) => `${e.type}:${e.decision}`);

  it('refuses by policy without calling a model or asking anyone', async () => {
    const { runner, audit, policies } = await setup({ mode: 'refuse' }, unreachableGate);
    const before = server.requests.length;
    const outcome = await runner.run(samplingParams(), makeContext().context);
    assert.deepEqual(outcome, {
      type: 'error',
      error: { code: -1, message: 'Model requests from Test server are set to Refuse.' }
    });
    assert.equal(server.requests.length, before);
    assert.deepEqual(policies, ['srv-1']);
    assert.deepEqual(audit, [
      {
        type: 'sampling.request',
        serverId: 'srv-1',
        serverName: 'Test server',
        taskId: 'task-1',
        decision: 'refused',
        reason: 'policy: refuse',
        at: Date.UTC(2026, 5, 1)
      }
    ]);
  });

  it('asks first: the task says it waits for the user, then runs what was approved', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask', reviewCompletion: false });
    server.enqueue({ kind: 'text', tokens: ['Paris.'] });
    const { context, waitingFor } = makeContext();
    const before = server.chatRequests.length;
    const running = runner.run(samplingParams({ modelPreferences: { hints: [{ name: 'large' }] } }), context);
    const pending = await gate.approvals.next();
    assert.deepEqual(waitingFor.items, [
      { message: 'Waiting for your answer in the Inbox: approve a model request from Test server' }
    ]);
    assert.equal(server.chatRequests.length, before, 'no model call before approval');
    assert.equal(pending.draft.model, 'fake-large');
    assert.equal(pending.draft.serverName, 'Test server');
    assert.match(pending.draft.reason, /hint "large"/);
    pending.approve();
    const outcome = await running;
    assert.equal(textOf(outcome), 'Paris.');
    assert.equal(server.chatRequests[before]!.body.model, 'fake-large');
    // The task's status, and so its timeline, says who decided what.
    assert.deepEqual(waitingFor.items.at(-1), {
      message: undefined,
      next: 'Approved by you; fake-large is writing the answer.'
    });
    assert.deepEqual(decisions(audit), ['sampling.request:approved', 'sampling.llm:completed']);
    assert.equal(audit[0]!.model, 'fake-large');
  });

  it('a reply the person writes instead goes back with no model run, and is audited among the decisions', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask', reviewCompletion: true });
    const before = server.chatRequests.length;
    const { context, notes } = makeContext();
    const running = runner.run(samplingParams(), context);
    (await gate.approvals.next()).reply('Paris, by hand.', 'me');
    const outcome = await running;
    assert.equal(textOf(outcome), 'Paris, by hand.');
    assert.equal(outcome.type === 'result' && outcome.result.model, 'me');
    assert.equal(server.chatRequests.length, before, 'no model call');
    assert.equal(gate.reviews.items.length, 0, 'nothing to review: a person wrote it');
    assert.deepEqual(decisions(audit), ['sampling.request:written-by-you']);
    assert.doesNotMatch(JSON.stringify(audit), /by hand/);
    assert.ok(notes.items.some((note) => note.answeredBy === 'user' && note.action === 'reply'));
  });

  it('runs the edited prompt on the model the person picked', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask', reviewCompletion: false });
    const before = server.chatRequests.length;
    const { context, notes } = makeContext();
    const running = runner.run(samplingParams({ systemPrompt: 'You are a pirate.' }), context);
    const pending = await gate.approvals.next();
    assert.equal(pending.draft.model, 'fake-small');
    pending.approve({
      params: {
        systemPrompt: 'Be polite.',
        messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France, please?' } }]
      },
      model: 'fake-large'
    });
    assert.equal((await running).type, 'result');
    assert.deepEqual(server.chatRequests[before]!.body.messages, [
      { role: 'system', content: 'Be polite.' },
      { role: 'user', content: 'Capital of France, please?' }
    ]);
    assert.equal(server.chatRequests[before]!.body.model, 'fake-large');
    assert.deepEqual(decisions(audit), ['sampling.request:approved-with-edits', 'sampling.llm:completed']);
    assert.equal(audit[0]!.reason, 'chosen by you');
    // What changed, by part: never what was typed.
    assert.deepEqual(audit[0]!.changed, ['messages', 'systemPrompt', 'model']);
    assert.doesNotMatch(JSON.stringify(audit), /polite|please/);
    // What ran is noted on the task, for History (the server's request stays as it came).
    assert.deepEqual(
      notes.items.find((note) => 'ranRequest' in note),
      {
        ranRequest: {
          systemPrompt: 'Be polite.',
          messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France, please?' } }],
          maxTokens: 64
        },
        changed: ['messages', 'systemPrompt']
      }
    );
  });

  it('notes no request as run when only the model was changed, and audits just that', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask', reviewCompletion: false });
    const { context, notes } = makeContext();
    const params = samplingParams();
    const running = runner.run(params, context);
    (await gate.approvals.next()).approve({ params, model: 'fake-large' });
    assert.equal((await running).type, 'result');
    assert.deepEqual(decisions(audit), ['sampling.request:approved-with-edits', 'sampling.llm:completed']);
    assert.deepEqual(audit[0]!.changed, ['model']);
    assert.equal(
      notes.items.some((note) => 'ranRequest' in note),
      false
    );
  });

  it('answers a rejection with -1 "User rejected sampling request"', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask' });
    const before = server.requests.length;
    const { context, waitingFor } = makeContext();
    const running = runner.run(samplingParams(), context);
    (await gate.approvals.next()).reject('not now');
    assert.deepEqual(await running, { type: 'error', error: { code: -1, message: 'User rejected sampling request' } });
    assert.equal(server.requests.length, before);
    // No "working" step between the wait and the rejection that ends the task.
    assert.deepEqual(
      waitingFor.items.map((item) => item.message),
      ['Waiting for your answer in the Inbox: approve a model request from Test server']
    );
    assert.deepEqual(decisions(audit), ['sampling.request:rejected']);
    assert.equal(audit[0]!.reason, 'not now');
  });

  it('runs at once under auto, and shows the answer for review when asked to', async () => {
    const { runner, audit, gate } = await setup({ mode: 'auto', reviewCompletion: true });
    server.enqueue({ kind: 'text', tokens: ['Lyon.'] });
    const { context, waitingFor } = makeContext();
    const running = runner.run(samplingParams(), context);
    const review = await gate.reviews.next();
    assert.equal(gate.approvals.items.length, 0, 'auto does not ask before sampling');
    assert.deepEqual(review.draft.result.content, { type: 'text', text: 'Lyon.' });
    assert.deepEqual(waitingFor.items[0], {
      message: 'Waiting for your answer in the Inbox: review the answer for Test server'
    });
    review.approve({ ...review.draft.result, content: { type: 'text', text: 'Paris.' } });
    const outcome = await running;
    assert.deepEqual(outcome.type === 'result' && outcome.result.content, { type: 'text', text: 'Paris.' });
    assert.deepEqual(decisions(audit), [
      'sampling.request:auto-approved',
      'sampling.llm:completed',
      'sampling.completion:approved-with-edits'
    ]);
    assert.deepEqual(audit.at(-1)!.changed, ['content'], 'which part of the answer, not its text');
  });

  it('tells the server an answer cut off at the token limit is whole once the person rewrote it, and cut off when sent as it is', async () => {
    const { runner, gate } = await setup({ mode: 'auto', reviewCompletion: true });
    server.enqueue({ kind: 'text', tokens: ['Once upon'], finishReason: 'length' });
    const rewritten = runner.run(samplingParams(), makeContext().context);
    const review = await gate.reviews.next();
    assert.equal(review.draft.result.stopReason, 'maxTokens');
    review.approve({ ...review.draft.result, content: { type: 'text', text: 'Once upon a time, the end.' } });
    const whole = await rewritten;
    assert.equal(whole.type === 'result' && whole.result.stopReason, 'endTurn');

    server.enqueue({ kind: 'text', tokens: ['Once upon'], finishReason: 'length' });
    const asItIs = runner.run(samplingParams(), makeContext().context);
    const unchanged = await gate.reviews.next();
    unchanged.approve(unchanged.draft.result);
    const cut = await asItIs;
    assert.equal(cut.type === 'result' && cut.result.stopReason, 'maxTokens');
  });

  it('says a model picked by the person is no change of the request', async () => {
    const { runner, gate } = await setup({ mode: 'ask', reviewCompletion: false });
    server.enqueue({ kind: 'text', tokens: ['Paris.'] });
    const { context, waitingFor } = makeContext();
    const running = runner.run(samplingParams(), context);
    (await gate.approvals.next()).approve({ model: 'fake-large' });
    await running;
    assert.deepEqual(waitingFor.items.at(-1), {
      message: undefined,
      next: 'Approved by you, on the model you chose; fake-large is writing the answer.'
    });
  });

  it('answers a rejected completion with -1 too', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask', reviewCompletion: true });
    const running = runner.run(samplingParams(), makeContext().context);
    (await gate.approvals.next()).approve();
    (await gate.reviews.next()).reject();
    assert.deepEqual(await running, { type: 'error', error: { code: -1, message: 'User rejected sampling request' } });
    assert.deepEqual(decisions(audit), [
      'sampling.request:approved',
      'sampling.llm:completed',
      'sampling.completion:rejected'
    ]);
  });

  it('ends a wait for approval when the task is cancelled', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask' });
    const { context, controller } = makeContext();
    const running = runner.run(samplingParams(), context);
    await gate.approvals.next();
    controller.abort(new HostError(JsonRpcCode.RequestCancelled, 'Task t-1 was cancelled: by the requestor'));
    assert.deepEqual(await running, {
      type: 'error',
      error: { code: -32800, message: 'Task t-1 was cancelled: by the requestor' }
    });
    assert.deepEqual(decisions(audit), ['sampling.request:cancelled']);
  });

  it('records a wait ended by Taskdesk closing as interrupted, not cancelled: it waits again at the next start', async () => {
    const { runner, audit, gate } = await setup({ mode: 'ask' });
    const { context, controller } = makeContext();
    const running = runner.run(samplingParams(), context);
    await gate.approvals.next();
    controller.abort(new ShuttingDownError());
    await running;
    assert.deepEqual(decisions(audit), ['sampling.request:interrupted']);
    assert.match(audit[0]?.reason ?? '', /waits again when Taskdesk starts/);
  });

  it('says a request Taskdesk withdrew from the Inbox is withdrawn, not the person’s rejection', async () => {
    let asked: () => void = () => undefined;
    const added = new Promise<void>((resolve) => (asked = resolve));
    const inbox = new Inbox(new ManualClock(), { added: () => asked(), removed: () => undefined });
    const { runner, audit } = await setup({ mode: 'ask' }, new InboxApprovalGate(inbox));
    const running = runner.run(samplingParams(), makeContext().context);
    await added;
    inbox.withdraw(() => true, 'The task it was asked for (tool slow) was cancelled by you.');
    assert.deepEqual(await running, {
      type: 'error',
      error: {
        code: -1,
        message: 'Taskdesk withdrew this request: The task it was asked for (tool slow) was cancelled by you.'
      }
    });
    assert.deepEqual(decisions(audit), ['sampling.request:withdrawn']);
    assert.equal(audit[0]?.reason, 'The task it was asked for (tool slow) was cancelled by you.');
  });

  it('refuses a changed request that is no valid model request, in the Desk’s words, and keeps it waiting', async () => {
    let asked: (item: InboxItem) => void = () => undefined;
    const added = new Promise<InboxItem>((resolve) => (asked = resolve));
    const inbox = new Inbox(new ManualClock(), { added: (item) => asked(item), removed: () => undefined });
    const { runner } = await setup({ mode: 'ask' }, new InboxApprovalGate(inbox));
    const running = runner.run(samplingParams(), makeContext().context);
    const { id } = await added;
    assert.throws(
      () => inbox.answer(id, { action: 'approve', params: { maxTokens: 5 } }),
      (error: unknown) =>
        error instanceof HostError &&
        error.code === JsonRpcCode.InvalidParams &&
        /^The edited request is not a valid model request: messages: /.test(error.message)
    );
    assert.equal(inbox.list().length, 1, 'still waiting for the person');
    inbox.answer(id, { action: 'reject' });
    assert.equal((await running).type, 'error');
  });

  it('refuses a changed answer that is no valid model answer, in the Desk’s words, and keeps it waiting', async () => {
    let asked: (item: InboxItem) => void = () => undefined;
    const added = new Promise<InboxItem>((resolve) => (asked = resolve));
    const inbox = new Inbox(new ManualClock(), { added: (item) => asked(item), removed: () => undefined });
    const reviewing = new InboxApprovalGate(inbox).reviewCompletion(
      {
        serverId: 'srv-1',
        serverName: 'Test server',
        params: samplingParams(),
        providerId: 'p',
        providerName: 'Provider',
        model: 'fake-small',
        reason: 'the default',
        result: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'fake-small' }
      },
      new AbortController().signal
    );
    const { id } = await added;
    assert.throws(
      () => inbox.answer(id, { action: 'approve', result: { role: 'assistant', model: 'fake-small' } }),
      (error: unknown) =>
        error instanceof HostError &&
        error.code === JsonRpcCode.InvalidParams &&
        /^The edited answer is not a valid model answer: content: /.test(error.message)
    );
    assert.equal(inbox.list().length, 1, 'still waiting for the person');
    inbox.answer(id, { action: 'reject' });
    assert.equal((await reviewing).decision, 'reject');
  });

  it('says a failure to ask the person in the Desk’s words, to its server as on the Desk', async () => {
    const failing: ApprovalGate = {
      requestApproval: () => Promise.reject(new Error('the Inbox could not take it')),
      reviewCompletion: () => Promise.reject(new Error('not asked'))
    };
    const { runner } = await setup({ mode: 'ask' }, failing);
    assert.deepEqual(await runner.run(samplingParams(), makeContext().context), {
      type: 'error',
      error: {
        code: JsonRpcCode.InternalError,
        message: 'Could not ask you about the model request: the Inbox could not take it'
      }
    });
  });

  it('audits a model failure, and never a key', async () => {
    const { runner, audit } = await setup({ mode: 'auto', reviewCompletion: false }, unreachableGate);
    server.enqueue({ kind: 'error', status: 400, message: `bad request for key ${SECRET_KEY}` });
    const outcome = await runner.run(samplingParams(), makeContext().context);
    assert.equal(outcome.type, 'error');
    assert.deepEqual(decisions(audit), ['sampling.request:auto-approved', 'sampling.llm:failed']);
    const everything = JSON.stringify([outcome, audit]);
    assert.ok(!everything.includes(SECRET_KEY), everything);
    assert.match(audit[1]!.reason!, /rejected the request \(400\): bad request for key \[redacted\]/);
  });

  describe('an approved run that fails', () => {
    const overloaded = () => server.enqueue({ kind: 'error', status: 400, message: 'The model is overloaded' });

    it('goes back before the person with why, the request as they approved it, and a try again answers', async () => {
      const failedRuns: unknown[] = [];
      const { runner: sampler } = await makeRunner(server, { apiKey: SECRET_KEY });
      const gate = new ScriptedApprovalGate();
      const audit: SamplingAuditEvent[] = [];
      const clock = new ManualClock(Date.UTC(2026, 5, 1));
      const runner = new PolicySamplingRunner({
        sampler,
        gate,
        policyFor: () => SamplingPolicySchema.parse({ mode: 'ask', reviewCompletion: false }),
        audit: (event) => audit.push(event),
        clock,
        onApprovedRunFailed: (failure) => failedRuns.push(failure)
      });
      overloaded();
      server.enqueue({ kind: 'text', tokens: ['Paris.'] });
      const { context, notes, waitingFor } = makeContext();
      const before = server.chatRequests.length;
      const running = runner.run(samplingParams(), context);
      const edited = { systemPrompt: 'Be brief.' };
      (await gate.approvals.next()).approve({ params: edited, model: 'fake-large' });

      const again = await gate.approvals.next();
      const { message, ...where } = again.draft.lastFailure!;
      assert.deepEqual(where, {
        providerId: 'fake',
        providerName: 'Fake LLM',
        model: 'fake-large',
        at: new Date(Date.UTC(2026, 5, 1)).toISOString()
      });
      assert.match(message, /overloaded/);
      // Asked again as it ran: the person's changes and model, not the server's request.
      assert.equal(again.draft.model, 'fake-large');
      assert.equal(again.draft.params.systemPrompt, 'Be brief.');
      assert.deepEqual(waitingFor.items.at(-1), {
        message:
          'Waiting for your answer in the Inbox: the approved model run failed; try it again or reject the request from Test server'
      });
      // With Taskdesk's draft, which a restart sets the person's choices against.
      assert.deepEqual(notes.items.at(-1), {
        phase: 'awaiting-approval',
        drafted: {
          providerId: 'fake',
          providerName: 'Fake LLM',
          model: 'fake-small',
          reason: 'using the default model of Fake LLM'
        },
        lastFailure: again.draft.lastFailure
      });

      again.approve();
      assert.equal(textOf(await running), 'Paris.');
      assert.equal(server.chatRequests.length, before + 2);
      assert.equal(server.chatRequests[before + 1]!.body.model, 'fake-large');
      assert.deepEqual(waitingFor.items.at(-1), {
        message: undefined,
        next: 'Tried again by you, with your changes, on the model you chose; fake-large is writing the answer.'
      });
      assert.deepEqual(decisions(audit), [
        'sampling.request:approved-with-edits',
        'sampling.llm:failed',
        'sampling.request:approved-with-edits',
        'sampling.llm:completed'
      ]);
      // What ran is noted once: the second try ran the same request.
      assert.equal(notes.items.filter((note) => 'ranRequest' in note).length, 1);
      // The card says it; no notice besides.
      assert.deepEqual(failedRuns, []);
    });

    it('can be rejected then: the server is told the person rejected it', async () => {
      const { runner, audit, gate } = await setup({ mode: 'ask', reviewCompletion: false });
      overloaded();
      const running = runner.run(samplingParams(), makeContext().context);
      (await gate.approvals.next()).approve();
      (await gate.approvals.next()).reject('Not now');
      assert.deepEqual(await running, {
        type: 'error',
        error: { code: -1, message: 'User rejected sampling request' }
      });
      assert.deepEqual(decisions(audit), [
        'sampling.request:approved',
        'sampling.llm:failed',
        'sampling.request:rejected'
      ]);
    });

    it('ends with the task when it is cancelled while asked again: no model runs again', async () => {
      const { runner, gate, audit } = await setup({ mode: 'ask', reviewCompletion: false });
      overloaded();
      const { context, controller } = makeContext();
      const running = runner.run(samplingParams(), context);
      (await gate.approvals.next()).approve();
      await gate.approvals.next();
      const calls = server.chatRequests.length;
      controller.abort(new Error('cancelled by the server'));
      const outcome = await running;
      assert.equal(outcome.type, 'error');
      assert.equal(server.chatRequests.length, calls, 'no model call after the cancel');
      assert.deepEqual(decisions(audit), [
        'sampling.request:approved',
        'sampling.llm:failed',
        'sampling.request:cancelled'
      ]);
    });

    it('undone on a try again, the changes are noted as undone: what ran is the server’s request', async () => {
      const { runner, gate } = await setup({ mode: 'ask', reviewCompletion: false });
      overloaded();
      server.enqueue({ kind: 'text', tokens: ['Paris.'] });
      const { context, notes } = makeContext();
      const sent = samplingParams({ systemPrompt: 'As sent.' });
      const running = runner.run(sent, context);
      (await gate.approvals.next()).approve({ params: { systemPrompt: 'Changed.' } });
      const again = await gate.approvals.next();
      assert.equal(again.draft.params.systemPrompt, 'Changed.');
      again.approve({ params: { systemPrompt: 'As sent.' } });
      assert.equal(textOf(await running), 'Paris.');
      const ran = notes.items.filter((note) => 'ranRequest' in note);
      assert.deepEqual(
        ran.map((note) => (note.ranRequest as { systemPrompt?: string } | null)?.systemPrompt ?? null),
        ['Changed.', null]
      );
      assert.equal(lastRanRequest(notes.items), undefined, 'it ran as the server sent it');
    });

    it('asks again when the provider approved is no longer set up, rather than failing the request', async () => {
      const { runner, gate, audit } = await setup({ mode: 'ask', reviewCompletion: false });
      server.enqueue({ kind: 'text', tokens: ['Paris.'] });
      const running = runner.run(samplingParams(), makeContext().context);
      (await gate.approvals.next()).approve({ providerId: 'removed-meanwhile' });
      const again = await gate.approvals.next();
      assert.equal(again.draft.lastFailure?.message, 'The LLM provider "removed-meanwhile" is not configured.');
      assert.equal(again.draft.providerId, 'fake', 'the draft offers one that is there');
      again.approve();
      assert.equal(textOf(await running), 'Paris.');
      // Both approvals are said: the one whose provider was gone, then why nothing ran.
      assert.deepEqual(decisions(audit), [
        'sampling.request:approved',
        'sampling.llm:failed',
        'sampling.request:approved',
        'sampling.llm:completed'
      ]);
    });

    it('sets what the person approves against the new draft when the drafted provider was removed meanwhile', async () => {
      const clock = new ManualClock(Date.UTC(2026, 5, 1));
      const { runner: sampler, registry } = await makeRunner(server, { apiKey: SECRET_KEY });
      // First in the person's order: Taskdesk's draft, until it is removed.
      await registry.add({ id: 'first', name: 'First', baseURL: server.baseURL, models: [{ name: 'fake-small' }] });
      await registry.move('first', 0);
      const gate = new ScriptedApprovalGate();
      const audit: SamplingAuditEvent[] = [];
      const runner = new PolicySamplingRunner({
        sampler,
        gate,
        policyFor: () => SamplingPolicySchema.parse({ mode: 'ask', reviewCompletion: false }),
        audit: (event) => audit.push(event),
        clock
      });
      server.enqueue({ kind: 'text', tokens: ['Paris.'] });
      const { context, waitingFor } = makeContext();
      const running = runner.run(samplingParams(), context);
      const first = await gate.approvals.next();
      assert.equal(first.draft.providerId, 'first');
      await registry.remove('first');
      first.approve();
      const again = await gate.approvals.next();
      assert.equal(again.draft.providerId, 'fake');
      again.approve();
      assert.equal(textOf(await running), 'Paris.');
      const approvals = audit.filter((event) => event.type === 'sampling.request');
      assert.deepEqual(
        approvals.map((event) => [event.decision, event.providerId, event.changed]),
        [
          ['approved', 'first', undefined],
          ['approved', 'fake', undefined]
        ]
      );
      assert.doesNotMatch(String(approvals[1]!.reason), /chosen by you/);
      assert.equal(waitingFor.items.at(-1)?.next, 'Tried again by you; fake-small is writing the answer.');
    });

    it('passes over a failing provider only in a draft a person approves, not in a run made without asking', async () => {
      const { runner: sampler, registry } = await makeRunner(server, { apiKey: SECRET_KEY });
      await registry.add({
        id: 'first',
        name: 'First',
        baseURL: server.baseURL,
        apiKey: SECRET_KEY,
        models: [{ name: 'fake-small' }]
      });
      await registry.move('first', 0);
      const runWith = async (mode: 'ask' | 'auto') => {
        const gate = new ScriptedApprovalGate();
        const audit: SamplingAuditEvent[] = [];
        const runner = new PolicySamplingRunner({
          sampler,
          gate,
          policyFor: () => SamplingPolicySchema.parse({ mode, reviewCompletion: false }),
          audit: (event) => audit.push(event),
          providerFailing: (providerId) => providerId === 'first'
        });
        server.enqueue({ kind: 'text', tokens: ['Paris.'] });
        const running = runner.run(samplingParams(), makeContext().context);
        if (mode === 'ask') (await gate.approvals.next()).approve();
        const outcome = await running;
        assert.equal(textOf(outcome), 'Paris.', JSON.stringify(outcome));
        return audit.find((event) => event.type === 'sampling.request')!;
      };
      const asked = await runWith('ask');
      assert.deepEqual([asked.decision, asked.providerId], ['approved', 'fake']);
      assert.match(String(asked.reason), /^instead of First · fake-small, whose last call failed/);
      const unasked = await runWith('auto');
      assert.deepEqual([unasked.decision, unasked.providerId], ['auto-approved', 'first']);
    });

    it('ends as cancelled when the task is cancelled as the person approves a provider no longer set up', async () => {
      const { runner, gate, audit } = await setup({ mode: 'ask', reviewCompletion: false });
      const { context, controller } = makeContext();
      const running = runner.run(samplingParams(), context);
      (await gate.approvals.next()).approve({ providerId: 'removed-meanwhile' });
      controller.abort(new HostError(JsonRpcCode.RequestCancelled, 'Task t-1 was cancelled: by the requestor'));
      // The receiver's own error, not the provider's id (the person's, kept by the audit log).
      assert.deepEqual(await running, {
        type: 'error',
        error: { code: -32800, message: 'Task t-1 was cancelled: by the requestor' }
      });
      assert.deepEqual(decisions(audit), ['sampling.request:approved', 'sampling.llm:failed']);
      assert.equal(audit[1]!.reason, 'The LLM provider "removed-meanwhile" is not configured.');
    });

    it('is asked again with why after a restart, on the model and request of the failed try', async () => {
      const { runner, gate } = await setup({ mode: 'ask', reviewCompletion: false });
      server.enqueue({ kind: 'text', tokens: ['Lyon.'] });
      const ranRequest = samplingParams({ systemPrompt: 'Answer in one word.' });
      const lastFailure = {
        message: 'The model is overloaded',
        providerId: 'fake',
        providerName: 'Fake LLM',
        model: 'fake-large',
        at: '2026-06-01T00:00:00.000Z'
      };
      const { context } = makeContext({
        notes: [
          { phase: 'awaiting-approval' },
          { ranRequest, changed: ['systemPrompt'] },
          { phase: 'model', providerId: 'fake', model: 'fake-large' },
          { phase: 'awaiting-approval', lastFailure }
        ]
      });
      const running = runner.run(samplingParams(), context);
      const again = await gate.approvals.next();
      assert.deepEqual(again.draft.lastFailure, lastFailure);
      assert.equal(again.draft.params.systemPrompt, 'Answer in one word.');
      assert.equal(again.draft.model, 'fake-large');
      again.approve();
      assert.equal(textOf(await running), 'Lyon.');
    });

    it('approved before a restart and run now with nobody to ask: fails the request and says so where it was approved', async () => {
      const failedRuns: unknown[] = [];
      const { runner: sampler } = await makeRunner(server, { apiKey: SECRET_KEY });
      const runner = new PolicySamplingRunner({
        sampler,
        gate: unreachableGate,
        policyFor: () => SamplingPolicySchema.parse({ mode: 'auto', reviewCompletion: false }),
        audit: () => undefined,
        onApprovedRunFailed: (failure) => failedRuns.push(failure)
      });
      overloaded();
      const outcome = await runner.run(
        samplingParams(),
        makeContext({ notes: [{ phase: 'awaiting-approval' }] }).context
      );
      assert.equal(outcome.type, 'error');
      assert.equal(failedRuns.length, 1);
      assert.match((failedRuns[0] as { message: string }).message, /overloaded/);
    });
  });
});
