import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools
} from '@modelcontextprotocol/sdk/types.js';
import { systemClock, type Clock } from '../core/clock.js';
import { JsonRpcCode, ShuttingDownError, type ErrorData, errorMessage } from '../core/errors.js';
import type { SamplingRunner, WorkContext, WorkOutcome } from '../receiver/runners.js';
import { withdrawnNote } from '../receiver/withdrawn-note.js';
import { answeredNote } from '../receiver/answered-note.js';
import {
  withdrawnMessage,
  type ApprovalGate,
  type PersonReply,
  type RunFailure,
  type SamplingDraft,
  type Withdrawn
} from './approval-gate.js';
import { WAITING_IN_INBOX, type OriginLookup } from '../inbox/inbox-runners.js';
import { failureForServer, failureNote, runFailureKindOf } from './server-failure.js';
import { cancelledOutcome } from './llm-sampling-runner.js';
import type { ModelChoice } from './model-selection.js';
import type { SamplingAudit, SamplingAuditEvent } from './sampling-audit.js';
import { questionPreview } from '../audit/question-preview.js';
import { userRejectedMessage, type SamplingPolicy } from '../contract/sampling-policy.js';
import {
  changedParts,
  lastRanRequest,
  SAMPLING_REQUEST_PARTS,
  SAMPLING_RESULT_PARTS
} from '../contract/request-changes.js';

type SamplingOutcome = WorkOutcome<CreateMessageResult | CreateMessageResultWithTools>;

/** The model side the policy runner drives: `LlmSamplingRunner` is one. */
export interface ModelSampler {
  choose(
    params: CreateMessageRequestParams,
    passOver?: { failing?: (providerId: string) => boolean }
  ): ModelChoice | undefined;
  choiceFor(providerId: string, model: string, engineChoice?: ModelChoice): ModelChoice | undefined;
  run(params: CreateMessageRequestParams, context: WorkContext, choice?: ModelChoice): Promise<SamplingOutcome>;
}

/** What the policy runner is built from. */
export interface PolicySamplingRunnerOptions {
  sampler: ModelSampler;
  gate: ApprovalGate;
  /** The policy for a configured server id (the host's per-server settings). */
  policyFor: (serverId: string) => SamplingPolicy;
  audit: SamplingAudit;
  clock?: Clock;
  /**
   * A model run a person approved before a restart failed, with nobody to ask again (the policy
   * no longer asks): told so they hear of it where they approved it. Under "ask" a failed run
   * goes back to the person instead.
   */
  onApprovedRunFailed?: (failure: { serverId: string; serverName: string; taskId?: string; message: string }) => void;
  /**
   * A model run made without asking (policy "auto") failed: told with the whole reason (the
   * provider's name, address and what to do), which its server is not (see `failureForServer`).
   */
  onUnaskedRunFailed?: (failure: UnaskedRunFailure) => void;
  /**
   * Why a request a server asks for one of Taskdesk's own tasks (its related task) is withdrawn as
   * it comes in: that task has ended or was forgotten. Undefined while it runs.
   */
  lateReason?: (serverId: string, relatedTaskId: string) => string | undefined;
  /**
   * What a request asked for one of Taskdesk's own calls (its related task) came from: the tool,
   * prompt or resource, as the Inbox item names it. Its entries say so (see {@link AuditedOrigin}).
   */
  origin?: OriginLookup;
  /**
   * Whether a provider's last call failed (its health, as LLM providers shows it). Under "ask",
   * the draft a person approves passes over such a provider where nothing else decided the model
   * (see `chooseModel`): they would approve a run bound to fail. A run made without asking keeps
   * to the person's order, as a provider's failing is not a decision to bill another.
   */
  providerFailing?: (providerId: string) => boolean;
  /** The values Taskdesk holds as secrets: masked in the question a decision's entry quotes. */
  secretValues?: () => Iterable<string>;
}

/** A model run made without asking that failed: which server asked, on which provider and model, and why. */
export interface UnaskedRunFailure {
  serverId: string;
  serverName: string;
  taskId?: string;
  providerId: string;
  providerName: string;
  model: string;
  /** The whole reason, as the audit log keeps it (redacted of keys). */
  message: string;
}

/**
 * Sampling with a human in the loop: policy, then approval, then the model, then review.
 *
 * `refuse` answers at once; `ask` puts the request before a person through the
 * `ApprovalGate` (the task shows `input_required` meanwhile) and runs what they
 * approved on the model they picked (or sends the reply they wrote instead: its
 * `sampling.request` entry says `written-by-you`); `auto` runs it straight away. With
 * `reviewCompletion` the answer goes before a person too. A rejection is error -1
 * "User rejected sampling request", as MCP clients answer it. Every decision is audited.
 */
export class PolicySamplingRunner implements SamplingRunner {
  readonly resumable = false;

  /**
   * A task can start again after a restart unless the model was running: a question to a person
   * is asked again, and a review resumes with the answer recorded on the task (re-running the
   * model would bill twice).
   */
  canResume(notes: ReadonlyArray<Record<string, unknown>>): boolean {
    return lastPhase(notes)?.phase !== 'model';
  }
  readonly #options: PolicySamplingRunnerOptions;
  readonly #clock: Clock;
  /** Each run's origin, looked up as it starts (see `run`). */
  readonly #origins = new WeakMap<WorkContext, AuditedOrigin>();

  constructor(options: PolicySamplingRunnerOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** The secrets to mask in an entry's question (none unless the host gives them). */
  #secrets(): Iterable<string> {
    return this.#options.secretValues?.() ?? [];
  }

  async run(params: CreateMessageRequestParams, context: WorkContext): Promise<SamplingOutcome> {
    const { sampler, gate } = this.#options;
    // Looked up once, as the request comes in: the call it came from answers only while it runs,
    // and an entry written after it ended (the request withdrawn with it) names it all the same.
    this.#origins.set(context, this.#originOf(context));
    const policy = this.#options.policyFor(context.serverId);

    if (policy.mode === 'refuse') {
      this.#audit(context, 'sampling.request', 'refused', { reason: 'policy: refuse' });
      // Its server is told, and the person reads on Tasks and in History, in the words of the
      // choice they made on the Servers screen ("Model requests from X: Refuse.").
      return error(JsonRpcCode.UserRejected, `Model requests from ${context.serverName} are set to Refuse.`);
    }

    // Under "ask", the Inbox withdraws such a request as it arrives; without a person, it is here.
    const late =
      policy.mode === 'auto' && context.relatedTaskId !== undefined
        ? this.#options.lateReason?.(context.serverId, context.relatedTaskId)
        : undefined;
    if (late !== undefined) {
      this.#audit(context, 'sampling.request', 'withdrawn', { reason: late });
      context.annotate?.(withdrawnNote('reject', late));
      return error(JsonRpcCode.UserRejected, withdrawnMessage(late));
    }

    // What a person is shown and approves as Taskdesk's draft (or what runs unasked): what they
    // approve as it stands is not their change, whatever it passed over.
    const passOver = policy.mode === 'ask' ? { failing: this.#options.providerFailing } : undefined;
    const engineChoice = sampler.choose(params, passOver);
    if (!engineChoice) {
      // Nothing to approve: say why at once rather than asking a person first.
      const outcome = await sampler.run(params, context);
      if (outcome.type !== 'error') return outcome;
      this.#audit(context, 'sampling.llm', 'failed', { reason: outcome.error.message });
      // As a failed run's: the person's words (where to add a model) stay on the task.
      context.annotate?.(failureNote(outcome.error.message));
      return { type: 'error', error: failureForServer(outcome.error) };
    }

    let approvedParams = params;
    let choice: ModelChoice = engineChoice;
    const draft = (): SamplingDraft => ({
      serverId: context.serverId,
      serverName: context.serverName,
      ...(context.taskId ? { taskId: context.taskId } : {}),
      ...(context.relatedTaskId ? { relatedTaskId: context.relatedTaskId } : {}),
      ...(context.askedAt !== undefined && { askedAt: context.askedAt }),
      ...(context.expiresAt !== undefined && { expiresAt: context.expiresAt }),
      params: approvedParams,
      providerId: choice.providerId,
      providerName: choice.providerName,
      model: choice.model,
      reason: choice.reason
    });

    const resumed = lastPhase(context.notes ?? []);
    if (
      resumed?.phase === 'awaiting-review' &&
      resumed.result &&
      resumed.params &&
      resumed.providerId &&
      resumed.model
    ) {
      // Taskdesk restarted while a person reviewed the answer: review the same answer again.
      approvedParams = resumed.params as CreateMessageRequestParams;
      choice = sampler.choiceFor(resumed.providerId as string, resumed.model as string, engineChoice) ?? engineChoice;
      return this.#review(
        context,
        draft,
        choice,
        resumed.result as CreateMessageResult | CreateMessageResultWithTools,
        params
      );
    }

    // A run a person approved that failed goes back before them, with why (see `RunFailure`):
    // noted on the task, so that a restart meanwhile asks again with it.
    let failure = resumed?.phase === 'awaiting-approval' ? runFailureOf(resumed.lastFailure) : undefined;
    // Taskdesk's draft, which what the person approves is set against ("with your changes", "on
    // the model you chose"): drafted anew when the provider approved was removed meanwhile, and
    // kept on the task, since a restart knows nothing of which providers were failing.
    let drafted: ModelChoice = engineChoice;
    const keptDraft = resumed?.phase === 'awaiting-approval' ? modelChoiceOf(resumed.drafted) : undefined;
    if (keptDraft && sampler.choiceFor(keptDraft.providerId, keptDraft.model)) choice = drafted = keptDraft;
    if (failure) {
      approvedParams = (lastRanRequest(context.notes) as CreateMessageRequestParams | undefined) ?? params;
      choice = sampler.choiceFor(failure.providerId, failure.model, drafted) ?? drafted;
    }
    let outcome: SamplingOutcome;
    for (;;) {
      if (policy.mode === 'ask') {
        context.annotate?.({ phase: 'awaiting-approval', drafted, ...(failure && { lastFailure: failure }) });
        const decision = await this.#waitForPerson(
          context,
          failure
            ? failure.stopped
              ? `${WAITING_IN_INBOX}: you stopped the approved model run; run it again or reject the request from ${context.serverName}`
              : `${WAITING_IN_INBOX}: the approved model run failed; try it again or reject the request from ${context.serverName}`
            : `${WAITING_IN_INBOX}: approve a model request from ${context.serverName}`,
          () => gate.requestApproval({ ...draft(), ...(failure && { lastFailure: failure }) }, context.signal)
        );
        // The person wrote the reply (the provider down, say): it goes back as the no-provider path
        // sends a person's reply, with no model run and no review (a person wrote it).
        if (!('error' in decision) && decision.decision === 'reply') {
          // Among the request's decisions, as an approval is; the audit holds no content.
          this.#audit(context, 'sampling.request', 'written-by-you', answeredItem(context, params, this.#secrets()));
          return writtenByPerson(context, decision);
        }
        if ('error' in decision || decision.decision !== 'approve')
          return this.#notApproved(
            context,
            'sampling.request',
            decision,
            choice,
            answeredItem(context, params, this.#secrets())
          );
        const picked = sampler.choiceFor(decision.providerId, decision.model, drafted);
        if (!picked) {
          const gone = `The LLM provider "${decision.providerId}" is not configured.`;
          // The person's decision is said as any approval's is, then why nothing ran.
          this.#audit(context, 'sampling.request', 'approved', {
            ...at(choice),
            ...answeredItem(context, params, this.#secrets())
          });
          this.#audit(context, 'sampling.llm', 'failed', { ...at(choice), reason: gone });
          if (!context.signal.aborted) {
            // Removed while the request waited (a provider that failed, replaced by another):
            // back to the person, to choose one that is there.
            failure = { ...runFailure(gone, choice, this.#clock), providerId: decision.providerId };
            choice = drafted = sampler.choose(params, passOver) ?? drafted;
            continue;
          }
          // Cancelled as the person answered: the receiver's error, which names nothing of theirs.
          return cancelledOutcome(context.signal);
        }
        // Which parts the person changed (never what they typed: the audit holds no content).
        const changedRequest = changedParts(
          SAMPLING_REQUEST_PARTS,
          params as Record<string, unknown>,
          decision.params as Record<string, unknown>
        );
        const changedModel = picked.providerId !== drafted.providerId || picked.model !== drafted.model;
        const changed = [...changedRequest, ...(changedModel ? ['model' as const] : [])];
        const edited = changed.length > 0;
        // What ran, kept on the task for History beside the request the server sent (which stays
        // as it came): noted when it differs from what the last try ran, `null` when it is the
        // server's request again (the person undid their changes), so nothing says it ran changed.
        const changedSinceLastTry =
          changedParts(
            SAMPLING_REQUEST_PARTS,
            approvedParams as Record<string, unknown>,
            decision.params as Record<string, unknown>
          ).length > 0;
        if (changedSinceLastTry)
          context.annotate?.({
            ranRequest: changedRequest.length > 0 ? decision.params : null,
            changed: changedRequest
          });
        approvedParams = decision.params;
        choice = picked;
        // Who decided, for the Tasks row and History ("Answered": see `answeredByYou`).
        context.annotate?.(answeredNote('approve'));
        // The task's status says who decided, so its timeline does too.
        context.setWaitingFor?.(
          undefined,
          `${failure ? 'Tried again' : 'Approved'} by you${approvedWords(changedRequest.length > 0, changedModel)}; ${choice.model} is writing the answer.`
        );
        this.#audit(context, 'sampling.request', edited ? 'approved-with-edits' : 'approved', {
          ...at(choice),
          reason: choice.reason,
          ...(edited && { changed }),
          ...answeredItem(context, params, this.#secrets())
        });
      } else {
        this.#audit(context, 'sampling.request', 'auto-approved', { ...at(choice), reason: choice.reason });
      }

      context.annotate?.({ phase: 'model', providerId: choice.providerId, model: choice.model });
      outcome = await sampler.run(approvedParams, context, choice);
      if (outcome.type !== 'error') break;
      // The person's Stop ends the run as a failure of its own: what the model had written is
      // not sent (a cut-off answer), and the request is theirs again, as after any failed run.
      const stopped = runFailureKindOf(outcome.error) === 'stopped';
      this.#audit(context, 'sampling.llm', stopped ? 'stopped' : 'failed', {
        ...at(choice),
        reason: outcome.error.message
      });
      if (context.signal.aborted) return outcome;
      if (policy.mode === 'ask') {
        // A failed run a person approved (an overloaded or unreachable provider, a model that
        // refused the request) is not the end of the request: it goes back to them, to try
        // again, on another model or changed, or to decline. The server waits meanwhile.
        failure = { ...runFailure(outcome.error.message, choice, this.#clock), ...(stopped && { stopped: true }) };
        continue;
      }
      // Stopped by the person where nobody was asked first: they know, and no notice says it again.
      if (stopped) {
        context.annotate?.(failureNote(outcome.error.message));
        return { type: 'error', error: failureForServer(outcome.error) };
      }
      const told = {
        serverId: context.serverId,
        serverName: context.serverName,
        ...(context.taskId !== undefined && { taskId: context.taskId }),
        message: outcome.error.message
      };
      // Approved by a person before a restart (the task's notes say so), run now under another
      // policy with nobody to ask again: told where they approved it. Else nobody was asked, and
      // the person hears of it all the same: a run that fails quietly would leave them guessing.
      if ((context.notes ?? []).some((note) => note.phase === 'awaiting-approval'))
        this.#options.onApprovedRunFailed?.(told);
      else
        this.#options.onUnaskedRunFailed?.({
          ...told,
          providerId: choice.providerId,
          providerName: choice.providerName,
          model: choice.model
        });
      // The whole reason stays with the person (the task's notes, the audit log, the notice); the
      // server gets what kind of failure it was, in words that name nothing of theirs.
      context.annotate?.(failureNote(outcome.error.message));
      return { type: 'error', error: failureForServer(outcome.error) };
    }
    this.#audit(context, 'sampling.llm', 'completed', { ...at(choice), model: outcome.result.model });
    if (!policy.reviewCompletion) return outcome;
    context.annotate?.({
      phase: 'awaiting-review',
      params: approvedParams,
      providerId: choice.providerId,
      model: choice.model,
      result: outcome.result
    });
    return this.#review(context, draft, choice, outcome.result, params);
  }

  /**
   * Puts the model's answer before a person, and returns what they approved. `asked`: the request
   * as the server sent it, whose question the decision's entry names (never the person's changes).
   */
  async #review(
    context: WorkContext,
    draft: () => SamplingDraft,
    choice: ModelChoice,
    result: CreateMessageResult | CreateMessageResultWithTools,
    asked: CreateMessageRequestParams
  ): Promise<SamplingOutcome> {
    const { gate } = this.#options;
    const review = await this.#waitForPerson(
      context,
      `${WAITING_IN_INBOX}: review the answer for ${context.serverName}`,
      () => gate.reviewCompletion({ ...draft(), result }, context.signal)
    );
    if ('error' in review || review.decision !== 'approve')
      return this.#notApproved(
        context,
        'sampling.completion',
        review,
        choice,
        answeredItem(context, asked, this.#secrets())
      );
    context.annotate?.(answeredNote('approve'));
    const changed = changedParts(
      SAMPLING_RESULT_PARTS,
      result as Record<string, unknown>,
      review.result as Record<string, unknown>
    );
    this.#audit(context, 'sampling.completion', changed.length > 0 ? 'approved-with-edits' : 'approved', {
      ...at(choice),
      ...(changed.length > 0 && { changed }),
      ...answeredItem(context, asked, this.#secrets())
    });
    // An answer cut off (the token limit, the content filter) that the person rewrote is whole
    // now: its server is not told it was cut off, unless the person set the reason themselves.
    const completed =
      changed.includes('content') &&
      !changed.includes('stopReason') &&
      (review.result.stopReason === 'maxTokens' || review.result.stopReason === 'contentFilter');
    return { type: 'result', result: completed ? { ...review.result, stopReason: 'endTurn' } : review.result };
  }

  /**
   * What a request or an answer not approved ends with, audited: the wait for the person ended
   * (cancelled, or Taskdesk closing), Taskdesk withdrew it, or the person rejected it.
   */
  #notApproved(
    context: WorkContext,
    type: 'sampling.request' | 'sampling.completion',
    decision: { error: ErrorData } | Withdrawn | { decision: 'reject'; reason?: string },
    choice: ModelChoice,
    answered: AnsweredItem
  ): SamplingOutcome {
    if ('error' in decision) {
      this.#auditEndedWait(context, type, decision.error, at(choice));
      return { type: 'error', error: decision.error };
    }
    if (decision.decision === 'withdrawn') {
      this.#audit(context, type, 'withdrawn', { ...at(choice), reason: decision.reason });
      context.annotate?.(withdrawnNote('reject', decision.reason, false, decision.cause));
      return error(JsonRpcCode.UserRejected, withdrawnMessage(decision.reason));
    }
    this.#audit(context, type, 'rejected', {
      ...at(choice),
      ...(decision.reason ? { reason: decision.reason } : {}),
      ...answered
    });
    return error(JsonRpcCode.UserRejected, userRejectedMessage);
  }

  /**
   * Records a wait for the person that ended without their answer: `cancelled`, or
   * `interrupted` when Taskdesk closed meanwhile, since the request then waits again at the next
   * start (an entry saying "cancelled" would be contradicted by the answer given then).
   */
  #auditEndedWait(
    context: WorkContext,
    type: 'sampling.request' | 'sampling.completion',
    error: ErrorData,
    where: { providerId: string; model: string }
  ): void {
    if (context.signal.reason instanceof ShuttingDownError)
      this.#audit(context, type, 'interrupted', {
        ...where,
        reason: 'Taskdesk closed while this waited for you; it waits again when Taskdesk starts.'
      });
    else this.#audit(context, type, 'cancelled', { ...where, reason: error.message });
  }

  /**
   * Waits on the gate, saying so on the task; a cancelled wait becomes an error. The waiting
   * message stays once the person has answered: what comes next says what they decided (an
   * approval's "Approved by you…"; a rejection, or an answer reviewed, ends the task at once),
   * rather than a "working" step between their decision and its outcome.
   */
  async #waitForPerson<T>(
    context: WorkContext,
    message: string,
    ask: () => Promise<T>
  ): Promise<T | { error: ErrorData }> {
    context.setWaitingFor?.(message);
    try {
      return await ask();
    } catch (thrown) {
      if (context.signal.aborted) return { error: cancelledOutcome(context.signal).error };
      context.setWaitingFor?.(undefined);
      const detail = errorMessage(thrown);
      // Said to its server and on Tasks and in History: in the Desk's words, an approval or a review alike.
      return {
        error: { code: JsonRpcCode.InternalError, message: `Could not ask you about the model request: ${detail}` }
      };
    }
  }

  /** The origin a request's entries carry: none without a related task, or once its call has ended. */
  #originOf(context: WorkContext): AuditedOrigin {
    const described =
      context.relatedTaskId !== undefined ? this.#options.origin?.(context.serverId, context.relatedTaskId) : undefined;
    if (!described) return {};
    return { origin: described.words, ...(described.call && { relatedCall: true as const }) };
  }

  #audit(
    context: WorkContext,
    type: SamplingAuditEvent['type'],
    decision: SamplingAuditEvent['decision'],
    extra: Partial<Pick<SamplingAuditEvent, 'providerId' | 'model' | 'reason' | 'changed' | keyof AnsweredItem>> = {}
  ): void {
    this.#options.audit({
      type,
      serverId: context.serverId,
      serverName: context.serverName,
      ...(context.taskId ? { taskId: context.taskId } : {}),
      decision,
      ...extra,
      ...this.#origins.get(context),
      at: this.#clock.now()
    });
  }
}

/**
 * What every entry of a request says of the call of Taskdesk's it was asked for: its words
 * ("tool ask-name"), never its arguments or result.
 */
type AuditedOrigin = Pick<SamplingAuditEvent, 'origin' | 'relatedCall'>;

/** What a decision's entry says of the Inbox item a person answered (see {@link answeredItem}). */
type AnsweredItem = Pick<SamplingAuditEvent, 'question' | 'relatedTaskId'>;

/**
 * What the Inbox named of an item a person answered, for the entry of their decision: it is the
 * one entry of it (the Inbox records no `inbox.answered` for a model request or answer it puts
 * to a person through the gate). The server's request in a short preview, never what the person
 * wrote (so a review, whose request may hold their edits, quotes none), and the task of
 * Taskdesk's it was asked for.
 */
function answeredItem(
  context: WorkContext,
  params: CreateMessageRequestParams | undefined,
  secrets: Iterable<string>
): AnsweredItem {
  const question = params && questionPreview({ kind: 'sampling-approval', request: params }, secrets);
  return {
    ...(question !== undefined && { question }),
    ...(context.relatedTaskId !== undefined && { relatedTaskId: context.relatedTaskId })
  };
}

/**
 * The reply a person wrote, as the server gets it and the task's notes keep it: the same as a
 * reply written when no provider is set up (`InboxSamplingRunner`).
 */
function writtenByPerson(context: WorkContext, reply: PersonReply): SamplingOutcome {
  context.annotate?.(answeredNote('reply'));
  return {
    type: 'result',
    result: {
      role: 'assistant',
      content: { type: 'text', text: reply.text },
      model: reply.model,
      stopReason: 'endTurn'
    }
  };
}

function at(choice: ModelChoice): { providerId: string; model: string } {
  return { providerId: choice.providerId, model: choice.model };
}

function error(code: number, message: string): SamplingOutcome {
  return { type: 'error', error: { code, message } };
}

/** A failed try: why, on which model, and now. */
function runFailure(message: string, choice: ModelChoice, clock: Clock): RunFailure {
  return {
    message,
    providerId: choice.providerId,
    providerName: choice.providerName,
    model: choice.model,
    at: new Date(clock.now()).toISOString()
  };
}

/** A model choice kept on a task's note (Taskdesk's draft), or undefined when it is none. */
function modelChoiceOf(value: unknown): ModelChoice | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const note = value as Record<string, unknown>;
  const fields = ['providerId', 'providerName', 'model', 'reason'] as const;
  return fields.every((field) => typeof note[field] === 'string') ? (note as unknown as ModelChoice) : undefined;
}

/** A failed try's note (`lastFailure`), read back after a restart; undefined unless whole. */
function runFailureOf(value: unknown): RunFailure | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const note = value as Record<string, unknown>;
  const fields = ['message', 'providerId', 'providerName', 'model', 'at'] as const;
  return fields.every((field) => typeof note[field] === 'string') ? (note as unknown as RunFailure) : undefined;
}

/** The last phase the runner recorded on the task, if any. */
function lastPhase(notes: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> | undefined {
  for (let index = notes.length - 1; index >= 0; index--)
    if (typeof notes[index]!.phase === 'string') return notes[index];
  return undefined;
}

/**
 * How a task's status says what the person approved beyond the request as it came: their changes
 * to it, and a model of their choosing (not a change of the request: History shows none).
 */
function approvedWords(changedRequest: boolean, changedModel: boolean): string {
  if (changedRequest && changedModel) return ', with your changes, on the model you chose';
  if (changedRequest) return ', with your changes';
  return changedModel ? ', on the model you chose' : '';
}
