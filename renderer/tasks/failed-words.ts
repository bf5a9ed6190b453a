import { markdownPlainText } from '../../app/contract/markdown-plain-text.js';
import { errorWords } from '../../app/contract/error-words.js';
import { failedReason } from '../components/end-message.js';
import { sentence, truncate } from '../components/format.js';
import { namedItem } from '../inbox/answer-sent-words.js';
import type { HeldTimers } from '../store/held-answers.js';
import type { TaskItem } from './task-items.js';

/** How much of why a task failed its announcement says: the row and the detail have it whole. */
const REASON_CHARS = 140;

/** How many failed tasks one announcement names; the others are counted. */
const NAMED_AT_MOST = 3;

/** The least time between two announcements of failed tasks: those that fail meanwhile are said together at its end. */
export const FAILURES_GAP_MS = 5_000;

/**
 * Whether a task's end is said as a failure: it failed, and not because the person turned its
 * model request down (a Reject they gave is no news to them).
 */
export function saidAsFailed(item: Pick<TaskItem, 'status' | 'rejected'>): boolean {
  return item.status === 'failed' && !item.rejected;
}

/** A failed task as an announcement names it: "fail-tool on Report Builder", "Books’s model request “Summarise…”". */
export function failedTaskName(item: TaskItem): string {
  return item.inbound ? namedItem(item.inbound) : `${item.title} on ${item.serverName}`;
}

/** The text blocks of a result's content, in plain words (a tool's result is often Markdown). */
function resultText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((block: unknown) => {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    return type === 'text' && typeof text === 'string' && text.trim() !== '' ? [text] : [];
  });
  return texts.length === 0 ? undefined : markdownPlainText(texts.join('\n\n'));
}

/**
 * Why a task failed, in a line, as its row says it: the reason its server gave with the end, the
 * error that failed it, its result's text (a tool's error result: "disk full"), or its last
 * status message. Undefined when there is none.
 */
export function failedTaskReason(item: TaskItem): string | undefined {
  const reason = item.outbound && failedReason(item.outbound);
  const outcome = item.inbound ? item.inbound.outcome : item.outbound?.outcome;
  const said =
    reason ??
    (outcome?.type === 'error'
      ? errorWords(outcome.error)
      : outcome?.type === 'result'
        ? resultText(outcome.result.content)
        : undefined) ??
    (item.inbound?.task ?? item.outbound?.task)?.statusMessage;
  const line = said?.replace(/\s+/g, ' ').trim();
  return line ? truncate(line, REASON_CHARS) : undefined;
}

/** A failed task, as the live region says it: "fail-tool on Report Builder failed: disk full." */
export function failedTaskWords(item: TaskItem): string {
  const reason = failedTaskReason(item);
  return sentence(`${failedTaskName(item)} failed${reason === undefined ? '' : `: ${reason}`}`);
}

/**
 * Several tasks that failed within {@link FAILURES_GAP_MS} of each other, said as one sentence,
 * each named once, with how many times when several have one name (the first
 * {@link NAMED_AT_MOST} names, the others counted), and none's reason: "4 tasks failed:
 * fail-rpc on Indexer 3 times and fail-tool on Books."
 */
export function failedTogetherWords(names: readonly string[]): string {
  const times = new Map<string, number>();
  for (const name of names) times.set(name, (times.get(name) ?? 0) + 1);
  const said = [...times].map(([name, n]) => (n > 1 ? `${name} ${n} times` : name));
  const named = said.slice(0, NAMED_AT_MOST);
  const more = said.length - named.length;
  const list =
    more > 0
      ? `${named.join(', ')} and ${more} more`
      : `${named.slice(0, -1).join(', ')}${named.length > 1 ? ' and ' : ''}${named.at(-1) ?? ''}`;
  return sentence(`${names.length} tasks failed: ${list}`);
}

/**
 * Says parts at most once per gap: the first at once, those that come within the gap together at
 * its end (and so on, a gap after each saying), so that a burst is said in a few sentences rather
 * than one a task. `say` is given one part or several.
 */
export class SpacedSayings<T> {
  readonly #say: (parts: readonly T[]) => void;
  readonly #timers: HeldTimers;
  readonly #gapMs: number;
  #timer: unknown;
  #waiting: T[] = [];
  #closed = false;

  constructor(say: (parts: readonly T[]) => void, timers: HeldTimers, gapMs = FAILURES_GAP_MS) {
    this.#say = say;
    this.#timers = timers;
    this.#gapMs = gapMs;
  }

  /** Says `part` now, or with the others at the end of the gap under way. */
  add(part: T): void {
    if (this.#closed) return;
    if (this.#timer !== undefined) {
      this.#waiting.push(part);
      return;
    }
    this.#say([part]);
    this.#wait();
  }

  /** Says nothing more: what waits is dropped. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = [];
  }

  #wait(): void {
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      const parts = this.#waiting.splice(0);
      if (parts.length === 0) return;
      this.#say(parts);
      this.#wait();
    }, this.#gapMs);
  }
}
