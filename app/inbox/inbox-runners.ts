import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { InboxAnswer, InboxItem } from '../contract/host-api.js';
import { JsonRpcCode } from '../core/errors.js';
import type { SamplingRunner, UserPrompter, WorkContext, WorkOutcome } from '../receiver/runners.js';
import type { Inbox } from './inbox.js';
import { withdrawnNote } from '../receiver/withdrawn-note.js';
import { answeredNote } from '../receiver/answered-note.js';
import { withdrawnMessage } from '../sampling/approval-gate.js';

/** The status message a task shows its server while a person has its question in the Inbox. */
export const WAITING_IN_INBOX = 'Waiting for your answer in the Inbox';

/**
 * Describes what is asking, for the inbox item (a tool call of ours, when there is a related
 * task): its words ("tool ask-name"), and whether the related id is a multi round-trip request of
 * Taskdesk's rather than a task (`call`).
 */
export type OriginLookup = (
  serverId: string,
  relatedTaskId: string
) => { words: string; call: boolean; linksAskedAgain?: readonly string[] } | undefined;

/**
 * An inbox item's `origin` and `relatedCall`, from what {@link OriginLookup} found, and
 * `askedAgain` for a link (`params`) the person already agreed to open for the same request.
 */
export function originFields(
  described: ReturnType<OriginLookup>,
  params?: object
): { origin?: string; relatedCall?: true; askedAgain?: true } {
  if (!described) return {};
  const { mode, url } = (params ?? {}) as { mode?: unknown; url?: unknown };
  const again = mode === 'url' && typeof url === 'string' && described.linksAskedAgain?.includes(url) === true;
  return {
    origin: described.words,
    ...(described.call && { relatedCall: true as const }),
    ...(again && { askedAgain: true as const })
  };
}

/** Asks elicitation questions through the inbox. Resumable: a restart asks again. */
export class InboxPrompter implements UserPrompter {
  readonly resumable = true;
  readonly #inbox: Inbox;
  readonly #origin: OriginLookup | undefined;

  constructor(inbox: Inbox, origin?: OriginLookup) {
    this.#inbox = inbox;
    this.#origin = origin;
  }

  async prompt(
    params: Parameters<UserPrompter['prompt']>[0],
    context: WorkContext
  ): Promise<WorkOutcome<ElicitResult>> {
    context.setWaitingFor?.(WAITING_IN_INBOX);
    const answer = await this.#inbox.ask(itemFor('elicitation', params, context, this.#origin), context.signal);
    context.annotate?.(answerNote(this.#inbox, answer));
    switch (answer.action) {
      case 'accept':
        // URL mode carries no content: the user only consents to open the URL.
        return {
          type: 'result',
          result:
            answer.content && params.mode !== 'url'
              ? { action: 'accept', content: answer.content as ElicitResult['content'] }
              : { action: 'accept' }
        };
      case 'decline':
      case 'cancel':
        return { type: 'result', result: { action: answer.action } };
      default:
        return {
          type: 'error',
          error: { code: JsonRpcCode.InternalError, message: `Unexpected answer ${answer.action}` }
        };
    }
  }
}

type SamplingOutcome = Awaited<ReturnType<SamplingRunner['run']>>;

/** Lets a person answer sampling requests from the inbox (reply or reject). Resumable. */
export class InboxSamplingRunner implements SamplingRunner {
  readonly resumable = true;
  readonly #inbox: Inbox;
  readonly #origin: OriginLookup | undefined;
  /** The signals of the runs waiting for the person whose request may go another way ({@link handOver}). */
  readonly #movable = new Set<AbortSignal>();

  constructor(inbox: Inbox, origin?: OriginLookup) {
    this.#inbox = inbox;
    this.#origin = origin;
  }

  /**
   * `fallback`: why a person is asked when the server's policy would have run a model (the item
   * says so). `instead`: how the request is answered if it is handed over ({@link handOver}) before
   * the person answers it; without it, it waits for the person.
   */
  async run(
    params: Parameters<SamplingRunner['run']>[0],
    context: WorkContext,
    fallback?: InboxItem['fallback'],
    instead?: () => Promise<SamplingOutcome>
  ): Promise<SamplingOutcome> {
    context.setWaitingFor?.(WAITING_IN_INBOX);
    const item = itemFor('sampling', params, context, this.#origin);
    if (instead) this.#movable.add(context.signal);
    let answer: InboxAnswer;
    try {
      answer = await this.#inbox.ask(fallback ? { ...item, fallback } : item, context.signal);
    } finally {
      this.#movable.delete(context.signal);
    }
    // Nobody answered it: it goes the other way, which notes and audits what it does.
    if (instead && this.#inbox.isHandedOver(answer)) return await instead();
    context.annotate?.(answerNote(this.#inbox, answer));
    switch (answer.action) {
      case 'reply':
        return {
          type: 'result',
          result: {
            role: 'assistant',
            content: { type: 'text', text: answer.text },
            model: answer.model,
            stopReason: 'endTurn'
          }
        };
      case 'reject':
        // Taskdesk took it back (the task it was asked for ended): declined, in those words.
        if (this.#inbox.isWithdrawal(answer))
          return {
            type: 'error',
            error: { code: JsonRpcCode.UserRejected, message: withdrawnMessage(answer.reason ?? '') }
          };
        // The error an ordinary sampling request gets when the user rejects it.
        return {
          type: 'error',
          error: {
            code: JsonRpcCode.UserRejected,
            message: answer.reason
              ? `User rejected sampling request: ${answer.reason}`
              : 'User rejected sampling request'
          }
        };
      default:
        return {
          type: 'error',
          error: { code: JsonRpcCode.InternalError, message: `Unexpected answer ${answer.action}` }
        };
    }
  }

  /**
   * Hands every request waiting for the person that may go another way (its run was given
   * `instead`) over to it: its Inbox item goes without being withdrawn ({@link Inbox.handOver}),
   * and its run goes on with `instead`. One the person has answered already is not among them.
   * Returns how many were handed over.
   */
  handOver(): number {
    let handed = 0;
    for (const signal of [...this.#movable]) if (this.#inbox.handOver(signal)) handed++;
    return handed;
  }
}

/**
 * Who answered, for the task's notes: the person, or Taskdesk when it withdrew the question (and
 * why, with its `cause` when the Inbox was given one: History reads that, not the words).
 */
function answerNote(inbox: Inbox, answer: InboxAnswer): Record<string, unknown> {
  const withdrawn = inbox.withdrawalReason(answer);
  if (withdrawn === undefined) return answeredNote(answer.action);
  return withdrawnNote(answer.action, withdrawn, inbox.withdrawnByYou(answer), inbox.withdrawalCause(answer));
}

function itemFor(
  kind: 'elicitation' | 'sampling',
  params: object,
  context: WorkContext,
  origin: OriginLookup | undefined
) {
  const described = context.relatedTaskId ? origin?.(context.serverId, context.relatedTaskId) : undefined;
  return {
    ...(context.taskId !== undefined && { id: context.taskId, taskId: context.taskId }),
    kind,
    serverId: context.serverId,
    serverName: context.serverName,
    ...(context.relatedTaskId !== undefined && { relatedTaskId: context.relatedTaskId }),
    ...originFields(described, params),
    ...(context.askedAt !== undefined && { createdAt: context.askedAt }),
    ...(context.expiresAt !== undefined && { expiresAt: context.expiresAt }),
    request: params as Record<string, unknown>
  };
}
