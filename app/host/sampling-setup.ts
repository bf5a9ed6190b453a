import { z } from 'zod';
import type { AuditSink } from '../audit/audit-log.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { InboxApprovalGate } from '../inbox/inbox-approval-gate.js';
import { InboxSamplingRunner, type OriginLookup } from '../inbox/inbox-runners.js';
import type { Inbox } from '../inbox/inbox.js';
import type { SamplingRunner, WorkContext } from '../receiver/runners.js';
import type { KeyStore } from '../sampling/key-store.js';
import { LlmSamplingRunner, type PartialUpdate, type StopTarget } from '../sampling/llm-sampling-runner.js';
import { detectLocalProviders, type LocalServerPort } from '../sampling/local-detection.js';
import { REFUSED_BY_POLICY } from '../history/withdrawal.js';
import { PolicySamplingRunner, type PolicySamplingRunnerOptions } from '../sampling/policy-sampling-runner.js';
import {
  ProviderSettingsSchema,
  type ModelListing,
  type ProviderHealth,
  type ProviderSaveSchema,
  type ProviderSettings,
  type ProviderView,
  type SavedProvider
} from '../contract/providers.js';
import { ProviderRegistry } from '../sampling/provider-registry.js';
import { SamplingPolicySchema, defaultSamplingPolicy, type SamplingPolicy } from '../contract/sampling-policy.js';
import { assertToolBalance } from '../sampling/tool-balance.js';
import { anyModel } from '../contract/model-names.js';
import { testConnection, type ConnectionTestResult } from '../sampling/test-connection.js';
import { checkModelFile, localModels, LocalModelError, type ModelFileProblem } from '../sampling/local-model.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';

/** A save as the host API hands it over: parsed, its `mode` filled in. */
export type ProviderSaveParams = z.output<typeof ProviderSaveSchema>;

/** What the sampling setup is built from. */
export interface SamplingSetupOptions {
  /** The values Taskdesk holds as secrets: masked in the question a decision's audit entry quotes. */
  secretValues?: () => Iterable<string>;
  dir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  keyStore: KeyStore;
  inbox: Inbox;
  clock: Clock;
  audit: AuditSink;
  origin: OriginLookup;
  onPartial: (update: PartialUpdate) => void;
  /** A model run a person approved failed. */
  onApprovedRunFailed?: PolicySamplingRunnerOptions['onApprovedRunFailed'];
  /** A model run made without asking failed (the whole reason: its server is told less). */
  onUnaskedRunFailed?: PolicySamplingRunnerOptions['onUnaskedRunFailed'];
  /** Why a request for one of Taskdesk's own tasks is withdrawn as it comes in (see the runner's option). */
  lateReason?: PolicySamplingRunnerOptions['lateReason'];
  /** The fetch the `openai` SDK and the probes use (tests, proxies). */
  fetch?: typeof fetch;
  /** What a window shows of the providers changed without a host call (how one answers, see `ProviderHealth`). */
  onProvidersChanged?: () => void;
  /** Ports probed by local detection (tests use a random one). */
  localPorts?: readonly LocalServerPort[];
  /** How long local detection waits for each port; default 800 ms. */
  localProbeTimeoutMs?: number;
}

/**
 * Sampling as the host runs it: saved providers (keys in the key store), a policy per server,
 * the LLM engine behind the inbox approval gate, and a person answering from the inbox when
 * no provider is configured, until one that lists a model is saved: what waits for them then
 * goes to the model as it would if it came now (see {@link SamplingSetup.saveProvider}).
 */
export class SamplingSetup {
  readonly registry: ProviderRegistry;
  readonly runner: SamplingRunner;
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];
  readonly #providersDoc: OpenedDocument<ProviderSettings[]>;
  readonly #policiesDoc: OpenedDocument<Record<string, SamplingPolicy>>;
  /**
   * By server id. A Map, not an object: ids such as `constructor`, `toString` or `__proto__` pass
   * the id rule and would read (or replace) what every object inherits.
   */
  readonly #policies: Map<string, SamplingPolicy>;
  readonly #options: SamplingSetupOptions;
  /** The model engine under the policy runner: its calls are what {@link stop} stops. */
  readonly #llm: LlmSamplingRunner;
  /** Runs under way (a model call, a wait for the person): a close waits for them to end, see {@link ended}. */
  readonly #runs = new Set<Promise<unknown>>();
  /** The person answering when no model can: what it waits on is handed to the model path once one can. */
  readonly #person: InboxSamplingRunner;

  constructor(options: SamplingSetupOptions) {
    this.#options = options;
    const common = { dir: options.dir, corruptDir: options.corruptDir, factory: options.factory, version: 1 };
    this.#providersDoc = openVersionedDocument({
      ...common,
      name: 'providers',
      label: 'LLM provider list',
      schema: z.array(ProviderSettingsSchema),
      empty: () => []
    });
    this.#policiesDoc = openVersionedDocument({
      ...common,
      name: 'sampling-policies',
      // In the Servers screen's words for them, and what the person has then.
      label: 'model request settings of your servers (each is back to Ask me first)',
      schema: PoliciesByServerSchema,
      empty: () => ({})
    });
    for (const doc of [this.#providersDoc, this.#policiesDoc]) if (doc.warning) this.warnings.push(doc.warning);
    this.#policies = new Map(Object.entries(this.#policiesDoc.value));
    this.registry = new ProviderRegistry(options.keyStore, this.#providersDoc.value);
    const llm = (this.#llm = new LlmSamplingRunner({
      providers: this.registry,
      clock: options.clock,
      onPartial: options.onPartial,
      onCall: (providerId) => this.providerCall(providerId, 'sampling'),
      ...(options.fetch && { fetch: options.fetch })
    }));
    const policyRunner = new PolicySamplingRunner({
      sampler: llm,
      gate: new InboxApprovalGate(options.inbox, options.origin),
      origin: options.origin,
      policyFor: (serverId) => this.policyFor(serverId),
      providerFailing: (providerId) => this.registry.failing(providerId),
      ...(options.secretValues && { secretValues: options.secretValues }),
      audit: ({ at: _at, type, serverId, serverName, taskId, ...detail }) => {
        options.audit.record({
          type,
          serverId,
          ...(serverName !== undefined && { serverName }),
          ...(taskId !== undefined && { taskId }),
          detail
        });
      },
      clock: options.clock,
      ...(options.onApprovedRunFailed && { onApprovedRunFailed: options.onApprovedRunFailed }),
      ...(options.onUnaskedRunFailed && { onUnaskedRunFailed: options.onUnaskedRunFailed }),
      ...(options.lateReason && { lateReason: options.lateReason })
    });
    const person = (this.#person = new InboxSamplingRunner(options.inbox, options.origin));
    const registry = this.registry;
    const policyFor = (serverId: string) => this.policyFor(serverId);
    const runSampling: SamplingRunner['run'] = async (params, context) => {
      // The spec's tool-use rules hold whoever answers: a person must not be asked to answer a
      // history no model could take either (the engine checks it again before a model call).
      try {
        assertToolBalance(params.messages);
      } catch (error) {
        if (error instanceof HostError) return { type: 'error', error: toErrorData(error) };
        throw error;
      }
      const mode = policyFor(context.serverId).mode;
      const providers = registry.list();
      if (anyModel(providers) || mode === 'refuse') return await policyRunner.run(params, context);
      // No model to run it: a person answers, and the Inbox item says why when the policy would
      // have run a model ("auto"), or when providers are set up but none lists a model (saved
      // while its list could not be read): rejecting every request for that would be silent.
      const why = providers.length > 0 ? 'no-model' : mode === 'auto' ? 'no-provider' : undefined;
      // A provider that lists a model saved while the person has it (see `saveProvider`): the
      // request goes on as one that came then, under the server's policy as it is then. Under
      // "ask" its approval takes the item's place; run without asking, it no longer waits for them.
      return await person.run(params, context, why, () => {
        if (policyFor(context.serverId).mode !== 'ask') context.setWaitingFor?.(undefined);
        return policyRunner.run(params, context);
      });
    };
    const runs = this.#runs;
    this.runner = {
      // A person's reply can be asked for again after a restart; a model call is not repeated.
      get resumable() {
        return !anyModel(registry.list());
      },
      // Per task: a person's reply or approval is asked again, a review resumes with the stored
      // answer; only a model call that was running is not repeated.
      canResume: (notes) => policyRunner.canResume(notes),
      async run(params, context: WorkContext) {
        // Kept until it ends: a close waits for what its end records (see `ended`).
        const run = runSampling(params, context);
        runs.add(run);
        try {
          return await run;
        } finally {
          runs.delete(run);
        }
      }
    };
  }

  /**
   * Resolves once every run under way has ended, or after `limitMs`. A close aborts them (the
   * receiver's close, their connections' close) and waits here, so that what their end records
   * (a model call cancelled) is in the audit log before the log closes; the limit keeps a run
   * that does not heed its abort from holding the close.
   */
  async ended(limitMs: number): Promise<void> {
    if (this.#runs.size === 0) return;
    const clock = this.#options.clock;
    let timer: TimerHandle | undefined;
    const limit = new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, limitMs)));
    const all = async () => {
      while (this.#runs.size > 0) await Promise.allSettled([...this.#runs]);
    };
    await Promise.race([all(), limit]);
    if (timer !== undefined) clock.clearTimeout(timer);
  }

  /**
   * The person's Stop of a model writing an answer: its provider request is aborted and its run
   * ends "Stopped by you." (see `LlmSamplingRunner.stop`). False when none such was writing.
   */
  stop(target: StopTarget): boolean {
    return this.#llm.stop(target);
  }

  /** The policy of a server (the default, "ask" with review, when none is saved). */
  policyFor(serverId: string): SamplingPolicy {
    return structuredClone(this.#policies.get(serverId) ?? defaultSamplingPolicy);
  }

  /**
   * Saves a server's policy. Turned to refuse, its sampling requests still waiting in the Inbox
   * (for approval, review or a person's reply) are withdrawn: answered refused, as the request
   * would be if it came in now, instead of still being answerable there; `refused` says how many
   * (0 when none waited), so that the Desk says what was done, not what it saw before the save.
   */
  setPolicy(serverId: string, policy: SamplingPolicy): SamplingPolicy & { refused?: number } {
    const parsed = SamplingPolicySchema.parse(policy);
    this.#policiesDoc.save(policyDocument([...this.#policies, [serverId, parsed]]));
    this.#policies.set(serverId, parsed);
    this.#options.audit.record({ type: 'sampling.policy-changed', serverId, detail: { ...parsed } });
    if (parsed.mode !== 'refuse') return this.policyFor(serverId);
    // The person's own doing: they know why the cards go.
    const refused = this.#options.inbox.withdraw(
      (item) => item.serverId === serverId && item.kind !== 'elicitation',
      REFUSED_BY_POLICY,
      true,
      'policy'
    );
    return { ...this.policyFor(serverId), refused };
  }

  /**
   * Forgets a removed server's policy, so that another server later added under the same id
   * starts from the default ("ask") instead of inheriting, say, "auto".
   */
  forgetServer(serverId: string): void {
    if (!this.#policies.has(serverId)) return;
    this.#policiesDoc.save(policyDocument([...this.#policies].filter(([id]) => id !== serverId)));
    this.#policies.delete(serverId);
  }

  /**
   * Adds a provider (an id in use is refused) or updates one; its key goes to the key store,
   * never to the settings file. An update that moves the provider to another origin without a
   * new key deletes the stored key (see `ProviderRegistry.update`), and the audit log says so.
   * Once a provider lists a model, the model requests waiting for a person's reply (none could run
   * them when they came) go to the model path, as they would if they came now: under "ask" each
   * card becomes the approval card, in its place; under "auto" each runs at once.
   */
  async saveProvider(params: ProviderSaveParams): Promise<SavedProvider> {
    const { mode, ...config } = params;
    const stored = this.registry.get(config.id);
    const before = stored?.modelFile;
    // A model file's path that is new (an add) or changed (an edit) must name a GGUF file: else the
    // save is refused on the Model file field, nothing saved, and the person fixes the typo in the
    // form they typed it in. A path kept as it was is not checked: its file may have gone since (a
    // disk unmounted), and the provider's name and ratings stay editable; the check below says why
    // it fails, as its card does. (An add under an id in use, or an update of none, is refused by
    // the registry for that.)
    if (config.modelFile !== undefined && (mode === 'add' ? !stored : stored && before !== config.modelFile))
      await refuseUnusableModelFile(config.modelFile);
    let saved: SavedProvider = mode === 'update' ? await this.registry.update(config) : await this.registry.add(config);
    // A model file no provider runs now is freed (its memory is the model's size).
    if (before !== undefined && before !== saved.modelFile) void this.#unloadUnused(before);
    this.#providersDoc.save(this.registry.list());
    const { keyDroppedFor } = saved;
    // Saved with no model, the provider could run nothing: it is asked for its models, as "Test
    // connection" asks, and those it names are listed. Here rather than in the screen: the Electron
    // window and browser mode share this core, and so does any other caller of `providers.save`
    // (Detect's one-click add, scripts), so all behave alike; and the listing is checked against
    // the saved provider under the registry's lock (another window may have changed it meanwhile).
    // The save holds whatever the provider answers (a server that is down is saved all the same);
    // `modelListing` says what it did, or why not. A model file is checked at every save (its model
    // is named after it, so it always has one): a new path was checked above, and a kept one whose
    // file is gone is said with the save, not at first use.
    const asked = saved.models.length === 0 || saved.modelFile !== undefined ? this.registry.get(saved.id) : undefined;
    // The same request as Test connection: it says as much of how the provider answers.
    const answered = asked && this.#testCall(asked);
    const modelListing = asked && (await this.#askForModels(asked));
    if (asked && modelListing?.ok) {
      const listed = await this.registry.listModels(asked.id, asked.baseURL, modelListing.models);
      if (listed) {
        this.#providersDoc.save(this.registry.list());
        saved = { ...listed, ...(keyDroppedFor !== undefined && { keyDroppedFor }) };
      }
    }
    // Once its models are listed, so that the windows hear both at once. A key store that could
    // not be read is no answer of the provider's.
    if (answered && modelListing && (modelListing.ok || modelListing.kind !== 'key-store')) {
      answered(modelListing.ok ? undefined : modelListing.message);
      const now = (await this.registry.views()).find((view) => view.id === saved.id);
      if (now?.health) saved = { ...saved, health: now.health };
    }
    if (keyDroppedFor !== undefined)
      this.#options.audit.record({
        type: 'provider.key-dropped',
        detail: { providerId: saved.id, keyOrigin: keyDroppedFor, baseURL: saved.baseURL }
      });
    this.#options.audit.record({
      type: 'provider.saved',
      detail: {
        providerId: saved.id,
        name: saved.name,
        mode,
        // A model file's address is no place: its path says what it is.
        ...(saved.modelFile !== undefined ? { modelFile: saved.modelFile } : { baseURL: saved.baseURL }),
        hasKey: saved.hasKey,
        ...(keyDroppedFor !== undefined && { keyDroppedFor }),
        ...(modelListing?.ok && saved.models.length > 0 && { modelsListed: saved.models.length }),
        // Why none could be listed, kept where the card's words (the save's answer) are not.
        ...(modelListing && !modelListing.ok && { modelsNotListed: modelListing.message })
      }
    });
    // Once a model can run them, the requests a person was asked to answer for want of one go to
    // it, as new ones would (said after the save, which is why).
    if (anyModel(this.registry.list())) this.#person.handOver();
    return modelListing ? { ...saved, modelListing } : saved;
  }

  /**
   * A saved provider's models, as "Test connection" lists them; what failed as data, even when
   * the key store cannot be read: the save it follows has happened, and holds.
   */
  async #askForModels(settings: ProviderSettings): Promise<ModelListing> {
    try {
      return await testConnection(settings, await this.registry.apiKey(settings.id), {
        clock: this.#options.clock,
        ...(this.#options.fetch && { fetch: this.#options.fetch })
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, kind: 'key-store', message: `Could not ask ${settings.name} for its models: ${message}` };
    }
  }

  async removeProvider(providerId: string): Promise<void> {
    const provider = this.registry.get(providerId);
    if (!provider) throw new HostError(JsonRpcCode.InvalidParams, `Unknown provider ${providerId}`);
    await this.registry.remove(providerId);
    this.#providersDoc.save(this.registry.list());
    if (provider.modelFile !== undefined) void this.#unloadUnused(provider.modelFile);
    this.#options.audit.record({ type: 'provider.removed', detail: { providerId, name: provider.name } });
  }

  /**
   * Moves a provider in the person's order (see `ProviderRegistry.move`): the first is the
   * default for model requests and new chats. Kept on disk and in the audit log.
   */
  async moveProvider(providerId: string, position: number): Promise<void> {
    const provider = this.registry.get(providerId);
    if (!provider) throw new HostError(JsonRpcCode.InvalidParams, `Unknown provider ${providerId}`);
    const at = await this.registry.move(providerId, position);
    if (at === undefined) throw new HostError(JsonRpcCode.InvalidParams, `Unknown provider ${providerId}`);
    this.#providersDoc.save(this.registry.list());
    this.#options.audit.record({
      type: 'provider.moved',
      detail: { providerId, name: provider.name, position: at + 1 }
    });
  }

  /** Frees `modelFile`'s model unless another provider runs the same file. */
  async #unloadUnused(modelFile: string): Promise<void> {
    if (this.registry.list().some((provider) => provider.modelFile === modelFile)) return;
    await localModels.unload(modelFile).catch(() => undefined);
  }

  /** Deletes a provider's stored key; the settings stay. */
  async clearKey(providerId: string): Promise<ProviderView> {
    if (!this.registry.get(providerId))
      throw new HostError(JsonRpcCode.InvalidParams, `Unknown provider ${providerId}`);
    await this.registry.clearKey(providerId);
    this.#options.audit.record({ type: 'provider.key-cleared', detail: { providerId } });
    const view = (await this.registry.views()).find((candidate) => candidate.id === providerId);
    if (!view) throw new HostError(JsonRpcCode.InvalidParams, `Unknown provider ${providerId}`);
    return view;
  }

  views(): Promise<ProviderView[]> {
    return this.registry.views();
  }

  /** "Test connection": lists the provider's models with its stored key, or says what failed. */
  async test(providerId: string): Promise<ConnectionTestResult> {
    const settings = this.registry.get(providerId);
    if (!settings) throw new HostError(JsonRpcCode.InvalidParams, `Unknown provider ${providerId}`);
    const answered = this.#testCall(settings);
    const result = await testConnection(settings, await this.registry.apiKey(providerId), {
      clock: this.#options.clock,
      ...(this.#options.fetch && { fetch: this.#options.fetch })
    });
    answered(result.ok ? undefined : result.message);
    return result;
  }

  /**
   * A call of a provider starts (a connection test, a sampling run, the assistant's model call):
   * the returned function takes how it went (`failure`: why it failed, in words), kept for the
   * providers' views, the windows told when that changes what they show. A call that ends after
   * the provider's address or key changed says nothing.
   */
  providerCall(providerId: string, via: ProviderHealth['via']): (failure?: string) => void {
    const started = this.registry.callStarted(providerId);
    return (failure) => {
      const at = new Date(this.#options.clock.now()).toISOString();
      if (this.registry.answered(providerId, via, at, started, failure)) this.#options.onProvidersChanged?.();
    };
  }

  /**
   * A test of a provider starts (Test connection, or the listing a save asks for), as
   * {@link providerCall} says, but for a model file found: its test finds the file and reads its
   * model's name, and runs nothing, so it says nothing of how the model answers (no "Answering
   * since" until a run); a failure shown before (the file was missing, for a test or a run) goes.
   */
  #testCall(settings: ProviderSettings): (failure?: string) => void {
    const answered = this.providerCall(settings.id, 'test');
    if (settings.modelFile === undefined) return answered;
    const started = this.registry.callStarted(settings.id);
    return (failure) => {
      if (failure !== undefined) answered(failure);
      else if (this.registry.forgetFailure(settings.id, started)) this.#options.onProvidersChanged?.();
    };
  }

  /** Local OpenAI-compatible servers answering on their usual loopback ports. */
  detect(): Promise<ProviderSettings[]> {
    return detectLocalProviders({
      clock: this.#options.clock,
      ...(this.#options.localPorts && { ports: this.#options.localPorts }),
      ...(this.#options.localProbeTimeoutMs !== undefined && { timeoutMs: this.#options.localProbeTimeoutMs }),
      ...(this.#options.fetch && { fetch: this.#options.fetch })
    });
  }
}

/**
 * What the Model file field says of a new path that names no model file, by what is wrong with it
 * (see `checkModelFile`).
 */
const MODEL_FILE_WORDS: Record<ModelFileProblem, string> = {
  missing: 'No file at this path.',
  folder: 'This is a folder, not a model file.',
  'not-a-file': 'This is not a file.',
  unreadable: 'Taskdesk cannot read this file.',
  'not-gguf': 'This file is not a GGUF model file.'
};

/**
 * Refuses a model file's path that names no model file Taskdesk can read, said on the form's
 * Model file field (`data.fields`); the message names the path, for callers without a form.
 */
async function refuseUnusableModelFile(modelFile: string): Promise<void> {
  try {
    await checkModelFile(modelFile);
  } catch (error) {
    if (!(error instanceof LocalModelError) || error.problem === undefined) throw error;
    const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
    const words =
      error.problem === 'unreadable' && (code === 'EACCES' || code === 'EPERM')
        ? 'Taskdesk is not allowed to read this file.'
        : MODEL_FILE_WORDS[error.problem];
    throw new HostError(JsonRpcCode.InvalidParams, error.message, { fields: { modelFile: words } });
  }
}

/** The policies as the stored document: own keys only (`Object.fromEntries` defines them, `__proto__` included). */
function policyDocument(entries: Array<[string, SamplingPolicy]>): Record<string, SamplingPolicy> {
  return Object.fromEntries(entries);
}

/**
 * The stored policies by server id. Not `z.record`: it builds its result by assignment, which
 * turns a `__proto__` key into the object's prototype and loses that server's policy.
 */
const PoliciesByServerSchema = z.unknown().transform((value, ctx): Record<string, SamplingPolicy> => {
  const out = Object.create(null) as Record<string, SamplingPolicy>;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'Expected an object of policies by server id' });
    return z.NEVER;
  }
  for (const [serverId, raw] of Object.entries(value)) {
    const parsed = SamplingPolicySchema.safeParse(raw);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `${serverId}: ${z.prettifyError(parsed.error)}` });
      return z.NEVER;
    }
    // A null-prototype object: assigning `__proto__` makes a plain key.
    out[serverId] = parsed.data;
  }
  return out;
});
