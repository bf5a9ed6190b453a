import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { McpError, CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ProviderSettings } from '../../app/contract/providers.js';
import { SamplingPolicySchema } from '../../app/contract/sampling-policy.js';
import { FileKeyStore } from '../../app/store/file-key-store.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { LlmSamplingRunner } from '../../app/sampling/llm-sampling-runner.js';
import { PolicySamplingRunner, type UnaskedRunFailure } from '../../app/sampling/policy-sampling-runner.js';
import { ProviderRegistry, type ProviderSource } from '../../app/sampling/provider-registry.js';
import type { SamplingAuditEvent } from '../../app/sampling/sampling-audit.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';
import { unreachableGate } from './sampling/scripted-approval-gate.js';

const params = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }],
  maxTokens: 5,
  task: { ttl: 60_000 }
};

/** The person's provider: what of it must never reach a server. */
const mine: ProviderSettings = {
  id: 'my-box',
  name: 'My provider',
  baseURL: 'http://127.0.0.1:9/v1',
  models: [{ name: 'gpt-test' }]
};

/** What a server must not be told: the provider's id, name, address, model, and words meant for the person. */
function assertNothingOfThePerson(sent: unknown, more: readonly string[] = []): void {
  const text = JSON.stringify(sent);
  for (const part of ['my-box', 'My provider', '127.0.0.1:9', 'gpt-test', 'LLM provider', 'settings', ...more])
    assert.ok(!text.includes(part), `the server got "${part}": ${text}`);
}

/**
 * Why a model request failed on Taskdesk's side before any provider answered (no model to run
 * it, the chosen provider gone, its key unreadable): the server is told the kind only, in a
 * generic sentence; History and the Desk keep the whole reason.
 */
describe('a model run that fails on Taskdesk’s own setup, under auto', () => {
  let fixture: InMemoryHostFixture | undefined;
  const temps: Array<() => void> = [];
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
    for (const remove of temps.splice(0)) remove();
  });

  /**
   * A host whose server `a` sends its model requests to a policy runner on `providers`, run
   * without asking; `onAutoApproved` is called between the model's choice and its run.
   */
  async function hostOn(providers: ProviderSource, onAutoApproved: () => void = () => undefined) {
    const peer = peerServer();
    const unasked: UnaskedRunFailure[] = [];
    const audit: SamplingAuditEvent[] = [];
    fixture = await startHostWith(
      { a: peer },
      {
        sampling: ({ clock }) =>
          new PolicySamplingRunner({
            sampler: new LlmSamplingRunner({ providers, clock }),
            gate: unreachableGate,
            policyFor: () => SamplingPolicySchema.parse({ mode: 'auto', reviewCompletion: false }),
            audit: (event) => {
              audit.push(event);
              if (event.decision === 'auto-approved') onAutoApproved();
            },
            clock,
            onUnaskedRunFailed: (failure) => unasked.push(failure)
          })
      }
    );
    return { peer, host: fixture.host, unasked, audit };
  }

  /** Sends a model request as a task; resolves with what its server was told, and what History says. */
  async function failedTask({ peer, host }: Awaited<ReturnType<typeof hostOn>>) {
    const inHistory = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'failed');
    const notified = peer.nextNotification('notifications/tasks/status', (p) => p.status === 'failed');
    const { task } = await peer.server.request({ method: 'sampling/createMessage', params }, CreateTaskResultSchema);
    const status = await notified;
    const got = await peer.server.request(
      { method: 'tasks/get', params: { taskId: task.taskId } },
      GetTaskResultSchema
    );
    const result = await peer.server
      .request({ method: 'tasks/result', params: { taskId: task.taskId } }, z.looseObject({}))
      .then(
        () => assert.fail('tasks/result should replay the error'),
        (error: unknown) => error
      );
    assert.ok(result instanceof McpError);
    assert.equal(got.status, 'failed');
    assert.equal(status.statusMessage, got.statusMessage);
    return {
      statusMessage: got.statusMessage,
      error: { code: result.code, message: result.message, data: result.data },
      history: (await inHistory).entry.statusMessage
    };
  }

  it('no provider lists a model: the server is told no model is set up, not where to add one', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore(), [{ ...mine, models: [] }]);
    const told = await failedTask(await hostOn(registry));
    const generic = 'Taskdesk could not run a model: none is set up to run this request.';
    assert.equal(told.statusMessage, generic);
    assert.deepEqual(told.error, { code: -32603, message: `MCP error -32603: ${generic}`, data: { kind: 'no-model' } });
    assertNothingOfThePerson([told.statusMessage, told.error], ['add one']);
    // History is the person's: it says what to do.
    assert.equal(
      told.history,
      'No LLM provider lists a model to run this request: add one under LLM providers in Taskdesk.'
    );
  });

  it('the chosen provider removed before the run: the server is not told its id', async () => {
    let providers = [mine];
    const source: ProviderSource = { list: () => structuredClone(providers), apiKey: async () => undefined };
    const setup = await hostOn(source, () => (providers = []));
    const told = await failedTask(setup);
    const generic = 'Taskdesk could not run the model: it is no longer set up.';
    assert.equal(told.statusMessage, generic);
    assert.deepEqual(told.error, {
      code: -32603,
      message: `MCP error -32603: ${generic}`,
      data: { kind: 'model-removed' }
    });
    assertNothingOfThePerson([told.statusMessage, told.error]);
    // The Desk keeps which one: History, the notice of a run made without asking, the audit log.
    assert.equal(told.history, 'The LLM provider "my-box" is not configured.');
    assert.deepEqual(
      setup.unasked.map(({ providerName, model, message }) => ({ providerName, model, message })),
      [{ providerName: 'My provider', model: 'gpt-test', message: 'The LLM provider "my-box" is not configured.' }]
    );
    assert.deepEqual(
      setup.audit.map((event) => [event.type, event.decision, event.providerId]),
      [
        ['sampling.request', 'auto-approved', 'my-box'],
        ['sampling.llm', 'failed', 'my-box']
      ]
    );
    assert.equal(setup.audit[1]!.reason, 'The LLM provider "my-box" is not configured.');
  });

  it('the provider’s key unreadable (its file broken since the start): neither the file nor the key reaches the server', async () => {
    const keys = tempDir();
    temps.push(keys.remove);
    const store = new FileKeyStore(keys.dir);
    await store.set('my-box', 'AIzaNeverShown4242');
    const file = path.join(keys.dir, 'provider-keys.json');
    // Broken after the start: every read fails, naming the file and quoting what it holds.
    fs.writeFileSync(file, '{"my-box":AIzaNeverShown4242}');
    const told = await failedTask(await hostOn(new ProviderRegistry(store, [mine])));
    const generic = 'Taskdesk could not run the model: it could not read the credentials for its provider.';
    assert.equal(told.statusMessage, generic);
    assert.deepEqual(told.error, {
      code: -32603,
      message: `MCP error -32603: ${generic}`,
      data: { kind: 'key-store' }
    });
    assertNothingOfThePerson([told.statusMessage, told.error], [keys.dir, 'AIza', 'JSON', 'API key']);
    assert.match(
      told.history ?? '',
      /^Taskdesk could not read the API key of My provider: The API key file .* is not valid JSON/
    );
    // Nor does the key reach the Desk: the parser's own words would quote the text around the fault.
    assert.ok(!(told.history ?? '').includes('AIza'), told.history);
  });
});
