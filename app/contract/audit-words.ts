/* A module of its own (no JSX, no zod), so that the Audit log screen shows entries in the words the
   log's search finds them by (app/audit/audit-log.ts), and its tests say them alike. */
import type { AuditEntry } from './host-api.js';
import { listInWords } from './list-words.js';
import { statusLabel } from './status-labels.js';

/** How a task had ended, by the status after which nothing more happens to it ("it had …"). */
const HAD_ENDED: Record<string, string> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'been cancelled'
};

type Detail = Record<string, unknown>;
type Words = (detail: Detail) => string;

/** A detail field as text, or undefined when it is not a non-empty string. */
function text(detail: Detail, key: string): string | undefined {
  const value = detail[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** ` “…”` after a sentence, when there is something to quote. */
function quoted(value: string | undefined): string {
  return value === undefined ? '' : `: “${value}”`;
}

/** A tool's name after a sentence, when the entry names one. */
function tool(detail: Detail): string {
  const name = text(detail, 'tool');
  return name === undefined ? 'a tool' : `the tool ${name}`;
}

/** What the Inbox calls an item of this kind: a server's question, or a model request. */
function itemWords(kind: unknown): string {
  return kind === 'elicitation' ? 'a question' : kind === 'sampling-review' ? 'a model’s answer' : 'a model request';
}

const INBOX_ACTIONS: Record<string, string> = {
  accept: 'You answered',
  decline: 'You declined',
  cancel: 'You dismissed',
  reply: 'You wrote the reply to',
  approve: 'You approved',
  reject: 'You rejected'
};

/**
 * A decision on a model request, given the server's question quoted (`: “…”`), or '' without one:
 * only a person's decision on its Inbox card keeps one, as the Inbox's own entries name an item.
 */
const SAMPLING_REQUEST: Record<string, (quote: string) => string> = {
  refused: () => 'A model request was refused by its policy',
  'auto-approved': () => 'A model request went to the model without asking (its policy)',
  approved: (quote) => `You approved a model request${quote}`,
  'approved-with-edits': (quote) => `You approved a model request${quote}, with changes`,
  rejected: (quote) => `You rejected a model request${quote}`,
  cancelled: () => 'A model request was cancelled while it waited',
  interrupted: () => 'A model request was interrupted by Taskdesk closing; it waits again',
  withdrawn: () => 'A model request was withdrawn: its task had ended',
  'written-by-you': (quote) =>
    quote === ''
      ? 'You wrote the answer to a model request yourself; no model ran'
      : `You wrote the answer yourself to a model request${quote}; no model ran`
};

/**
 * A decision on a model's answer, given the server's question it answers quoted (`: “…”`), or ''
 * without one: the person's decisions name it, as their decisions on the request do.
 */
const SAMPLING_COMPLETION: Record<string, (quote: string) => string> = {
  approved: (quote) => `You approved the model’s answer${toRequest(quote)}`,
  'approved-with-edits': (quote) => `You approved the model’s answer${toRequest(quote)}, with changes`,
  rejected: (quote) => `You rejected the model’s answer${toRequest(quote)}`,
  cancelled: () => 'The model’s answer was cancelled while it waited for you',
  interrupted: () => 'The model’s answer was interrupted by Taskdesk closing; it waits again',
  withdrawn: () => 'The model’s answer was withdrawn: its task had ended'
};

/** " to a model request: “…”" after an answer's decision, when there is a question to quote. */
function toRequest(quote: string): string {
  return quote === '' ? '' : ` to a model request${quote}`;
}

const POLICY_MODES: Record<string, string> = {
  ask: 'ask you each time',
  auto: 'run without asking',
  refuse: 'refuse them all'
};

const ASSISTANT_DECISIONS: Record<string, (name: string) => string> = {
  approve: (name) => `You allowed the assistant to call ${name}`,
  always: (name) => `You allowed the assistant to call ${name}, now and from now on`,
  deny: (name) => `You denied the assistant’s call to ${name}`,
  'refused-by-policy': (name) => `The assistant’s call to ${name} was refused by its policy`,
  auto: (name) => `The assistant called ${name} without asking (its policy)`,
  'always-allowed': (name) => `The assistant called ${name} (always allowed)`,
  'invalid-arguments': (name) =>
    `The assistant’s call to ${name} was not made: its arguments do not fit the tool’s input schema`
};

const TOOL_TASK_ENDS: Record<string, string> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'was cancelled',
  expired: 'expired before its result was fetched',
  lost: 'was lost: its server no longer knows it'
};

/**
 * How a tool call ended (`tool.call-ended`), given the tool in words. As the Tools screen says
 * it: a result returned, not "answered", which beside "You declined a question" (the question the
 * call asked) read as if that question had been answered.
 */
const TOOL_CALL_ENDS: Record<string, (name: string, d: Detail) => string> = {
  result: (name) => `${capitalized(name)} returned its result`,
  'tool-error': (name) => `${capitalized(name)} reported an error`,
  task: (name) => `The call to ${name} became a task`,
  error: (name) => `The call to ${name} failed`,
  // Listed at the start after Taskdesk stopped without closing (a crash, a forced stop).
  'not-finished': (name) => `The call to ${name} did not finish: Taskdesk stopped while it ran, without closing`,
  // Who cancelled it, as History says it: the person, or Taskdesk as it closed.
  cancelled: (name, d) =>
    `The call to ${name} was cancelled${
      d.cancelledBy === 'you' ? ' by you' : d.cancelledBy === 'taskdesk' ? ' by Taskdesk, as it closed' : ''
    }`
};

const CONNECTION: Record<string, string> = {
  idle: 'Not connected',
  connecting: 'Connecting',
  ready: 'Connected',
  failed: 'The connection failed',
  closed: 'Disconnected'
};

/**
 * A question taken out of the Inbox unanswered. With no reason kept, its server withdrew it; with
 * one, Taskdesk did, and the reason says why (the person cancelled or forgot the task it was asked
 * for, the task ended, Taskdesk stopped): "withdrawn before you answered" alone would read as the
 * server's doing.
 */
function withdrawnWords(d: Detail): string {
  const item = capitalized(itemWords(d.kind));
  const reason = text(d, 'reason');
  // No reason kept: its server withdrew it (cancelled the request, or stopped waiting), as the
  // Desk's notice says it.
  if (reason === undefined)
    return `The server withdrew ${itemWords(d.kind)} before you answered${quoted(text(d, 'question'))}`;
  const said = `${item} was closed without an answer${quoted(text(d, 'question'))}`;
  // A question that ends in its own mark (“Which city?”) takes no full stop after it.
  const end = (sentence: string) => (/[.!?]”?$/.test(sentence) ? sentence : `${sentence}.`);
  return `${end(said)} ${end(reason)}`;
}

/** Each entry type in words, given the entry's detail. */
const WORDS: Record<string, Words> = {
  'inbox.answered': (d) =>
    `${INBOX_ACTIONS[String(d.action)] ?? 'You answered'} ${itemWords(d.kind)}${quoted(text(d, 'question'))}`,
  'inbox.withdrawn': (d) =>
    d.atArrival === true
      ? `${capitalized(itemWords(d.kind))} came after its task had ended; answered at once${quoted(text(d, 'question'))}`
      : withdrawnWords(d),
  'task.created': (d) => `The server handed Taskdesk ${d.kind === 'sampling' ? 'a model request' : 'a question'}`,
  'task.status': (d) => `Task status: ${statusLabel(String(d.to))} (was ${statusLabel(String(d.from))})`,
  'task.result-retrieved': (d) => `The server fetched the task’s ${d.outcome === 'error' ? 'error' : 'result'}`,
  'task.cancelled': (d) =>
    d.by === 'you' ? 'You cancelled the task' : d.by === 'server' ? 'The server cancelled the task' : 'Task cancelled',
  // A task that had ended (answered, rejected, cancelled) is kept for its time to live, then
  // forgotten: said apart from one whose time ran out while it was still under way, unanswered.
  // Its `status` is the one it had, said here as how it ended: not as "status working".
  'task.expired': (d) => {
    const ended = Object.hasOwn(HAD_ENDED, String(d.status)) ? HAD_ENDED[String(d.status)] : undefined;
    if (text(d, 'reason') !== undefined)
      return `Task removed early (too many finished tasks)${ended === undefined ? '' : `; it had ${ended}`}`;
    return ended === undefined
      ? 'Task expired unanswered: its time ran out before it ended'
      : `Task forgotten: it had ${ended}, and the time it was kept after that ran out`;
  },
  'task.resumed': () => 'Task resumed after Taskdesk started again',
  'task.late-result-dropped': () => 'A result came after its task had ended, and was dropped',
  'task.rate-limited': () => 'Refused: the server asked too often',
  'task.unknown-id': () => 'The server asked about a task Taskdesk does not know',
  // Recorded as the call is made; entries of earlier versions, recorded as it ended, say how too.
  'tool.called': (d) =>
    `You called ${tool(d)}${
      d.outcome === 'task'
        ? '; it runs as a task'
        : d.outcome === 'error'
          ? '; the call failed'
          : d.outcome === 'tool-error'
            ? '; the tool reported an error'
            : ''
    }`,
  'tool.call-ended': (d) => TOOL_CALL_ENDS[String(d.outcome)]?.(tool(d), d) ?? `The call to ${tool(d)} ended`,
  'tool.call-cancelled': (d) => `You cancelled the call to ${tool(d)}`,
  'tool.task-cancelled': (d) => `You asked to cancel the task of ${tool(d)}`,
  'tool.task-forgotten': (d) => `You forgot the task of ${tool(d)}`,
  // The call was given up before its task was created (a Cancel, or no answer in time); the task came after.
  'tool.task-cancelled-late': (d) =>
    `A task of ${tool(d)} came after its call had ended; ${
      d.tasksCancel === 'sent'
        ? 'Taskdesk cancelled it'
        : d.tasksCancel === 'unsupported'
          ? 'the server cannot cancel tasks, so it may run on'
          : `cancelling it failed${text(d, 'error') ? `: ${text(d, 'error')}` : ''}`
    }`,
  'tool.task-ended': (d) => {
    const state = String(d.state);
    const by =
      state !== 'cancelled'
        ? ''
        : d.cancelledBy === 'you'
          ? ' by you'
          : d.cancelledBy === 'server'
            ? ' by the server'
            : '';
    const error = d.outcome === 'tool-error' ? ', the tool reporting an error' : '';
    return `The task of ${tool(d)} ${TOOL_TASK_ENDS[state] ?? `ended (${state})`}${by}${error}`;
  },
  'server.state': (d) => CONNECTION[String(d.status)] ?? `Connection: ${String(d.status)}`,
  'server.connect-asked': () => 'You asked to connect the server',
  'server.disconnect-asked': () => 'You disconnected the server',
  // Taskdesk adds the bundled demo server itself on a first launch: not the person's doing.
  'server.added': (d) =>
    d.by === 'taskdesk' ? 'Taskdesk added the server on its first start' : 'You added the server',
  'server.imported': () => 'You imported the server',
  'server.updated': (d) => {
    const changed = Array.isArray(d.changed) ? d.changed.filter((key) => typeof key === 'string') : [];
    const said =
      changed.length === 0
        ? 'You changed the server’s settings'
        : `You changed the server’s ${listInWords(changed.map((key) => SETTING_WORDS[key] ?? key.replace(/^transport\./, '')))}`;
    // Entries of earlier versions keep no name from before.
    const before = text(d, 'previousName');
    return before === undefined ? said : `${said}; it was named “${before}”`;
  },
  'server.removed': () => 'You removed the server',
  'server.sign-in-started': () => 'You started signing in, in the browser',
  'server.signed-in': (d) => `Signed in${text(d, 'issuer') !== undefined ? ` at ${text(d, 'issuer')}` : ''}`,
  'server.sign-in-failed': () => 'The sign-in failed',
  'server.sign-in-cancelled': () => 'You cancelled the sign-in',
  'server.signed-out': (d) =>
    d.revocation === 'revoked'
      ? 'You signed out; the authorization server revoked the sign-in'
      : d.revocation === 'not-offered'
        ? 'You signed out; the authorization server offers no revocation'
        : d.revocation === 'failed'
          ? 'You signed out; the sign-in could not be revoked at the authorization server'
          : 'You signed out',
  'server.oauth-client-set': () => 'You entered a client registered by hand, for signing in',
  'server.oauth-client-forgotten': () => 'You went back to automatic registration, for signing in',
  'server.line-ignored': () => 'The server sent a message Taskdesk could not use',
  'server.throttled': () => 'The server sent too much; Taskdesk reads it more slowly for a while',
  'sampling.request': (d) =>
    SAMPLING_REQUEST[String(d.decision)]?.(quoted(text(d, 'question'))) ?? `Model request: ${String(d.decision)}`,
  'sampling.llm': (d) =>
    d.decision === 'completed'
      ? 'The model answered'
      : d.decision === 'failed'
        ? 'The model call failed'
        : d.decision === 'stopped'
          ? 'You stopped the model'
          : `Model call: ${String(d.decision)}`,
  'sampling.completion': (d) =>
    SAMPLING_COMPLETION[String(d.decision)]?.(quoted(text(d, 'question'))) ?? `Model answer: ${String(d.decision)}`,
  'sampling.policy-changed': (d) =>
    `You set this server’s model requests to ${POLICY_MODES[String(d.mode)] ?? String(d.mode)}${
      // Refused, no model runs: no answer to review, whatever the review box holds.
      d.mode === 'refuse'
        ? ''
        : d.reviewCompletion === true
          ? ', answers reviewed by you'
          : d.reviewCompletion === false
            ? ', answers not reviewed'
            : ''
    }`,
  'assistant.policy-changed': (d) =>
    `You set the assistant’s calls of this server’s tools to ${POLICY_MODES[String(d.mode)] ?? String(d.mode)}${alwaysAllowed(d)}`,
  'assistant.tool-decision': (d) => {
    const name = text(d, 'tool') ?? 'a tool';
    return ASSISTANT_DECISIONS[String(d.decision)]?.(name) ?? `The assistant’s call to ${name}: ${String(d.decision)}`;
  },
  'provider.saved': (d) => `You saved the model provider${providerName(d)}`,
  'provider.removed': (d) => `You removed the model provider${providerName(d)}`,
  'provider.moved': (d) =>
    `You moved the model provider${providerName(d)} to ${d.position === 1 ? 'the top: it is the default now' : `place ${String(d.position)}`}`,
  'provider.key-cleared': () => 'You deleted a model provider’s key',
  'provider.key-dropped': () => 'A model provider’s key was deleted: its address moved to another site',
  'store.warning': () => 'Storage warning',
  'store.recovered': () => 'Storage works again',
  'store.write-failed': () => 'Taskdesk could not save a change to disk',
  'host.marker-unwritten': () => 'Taskdesk could not note that it is running',
  'host.unclean-stop': () => 'Taskdesk had not closed cleanly the last time it ran (a crash or a forced stop)',
  'host.open-work-cancelled': () =>
    'Taskdesk had closed with questions, model requests or tool calls without a task still open, and cancelled them',
  'audit.summary': (d) =>
    `${typeof d.count === 'number' ? d.count : 'Some'} more entries of “${auditLabel({ type: String(d.of) })}”, held back: too many at once${lastHeld(d)}`
};

/**
 * The tools the person allows without asking, after an assistant policy whose mode asks (an
 * "Always allow" on an approval card records the policy with the tool added): not to read as the
 * policy made stricter.
 */
function alwaysAllowed(d: Detail): string {
  const tools = Array.isArray(d.alwaysAllow) ? d.alwaysAllow.filter((t): t is string => typeof t === 'string') : [];
  if (d.mode !== 'ask' || tools.length === 0) return '';
  return `, except ${tools.join(', ')}, which it may always call`;
}

/** A provider by the name it was saved with (entries of earlier versions have only its id). */
function providerName(d: Detail): string {
  const name = text(d, 'name');
  if (name !== undefined) return ` “${name}”`;
  const id = text(d, 'providerId');
  return id === undefined ? '' : ` ${id}`;
}

/** What the last held-back entry said, when the summary keeps it (a connection's state now). */
function lastHeld(d: Detail): string {
  const last = d.last;
  if (typeof last !== 'object' || last === null || d.of !== 'server.state') return '';
  const status = String((last as Detail).status);
  return `; the last: ${CONNECTION[status] ?? status}`;
}

/**
 * An audit entry in a sentence a person reads ("You declined a question: “Which city?”",
 * "The connection failed"), from its type and detail; a type the Desk does not know (from a
 * newer host) in its own words with the dots as spaces. The raw type stays the entry's name
 * for search and export.
 */
export function auditSentence(entry: Pick<AuditEntry, 'type' | 'detail'>): string {
  const words = Object.hasOwn(WORDS, entry.type) ? WORDS[entry.type] : undefined;
  return words ? words(entry.detail ?? {}) : capitalized(entry.type.replace(/[.-]/g, ' '));
}

/**
 * The detail fields each entry type's sentence says already ("Disconnected" is its `status`): the
 * Audit log does not list them again under it. The log, its search and its export keep them.
 */
const SAID_BY_SENTENCE: Record<string, readonly string[]> = {
  'inbox.answered': ['action', 'kind', 'question'],
  'inbox.withdrawn': ['kind', 'question', 'reason', 'atArrival'],
  'task.status': ['from', 'to'],
  'task.cancelled': ['by'],
  'task.expired': ['status'],
  'tool.called': ['tool', 'outcome'],
  'tool.call-ended': ['tool', 'outcome', 'cancelledBy'],
  'tool.call-cancelled': ['tool'],
  'tool.task-cancelled': ['tool'],
  'tool.task-forgotten': ['tool'],
  'tool.task-cancelled-late': ['tool', 'tasksCancel', 'error'],
  'tool.task-ended': ['tool', 'state', 'cancelledBy', 'outcome'],
  'server.state': ['status'],
  'server.added': ['by'],
  'server.updated': ['changed', 'previousName'],
  'server.signed-in': ['issuer'],
  'sampling.request': ['decision', 'question'],
  'sampling.llm': ['decision'],
  'sampling.completion': ['decision', 'question'],
  'sampling.policy-changed': ['mode', 'reviewCompletion'],
  'assistant.policy-changed': ['mode'],
  'assistant.tool-decision': ['tool', 'decision'],
  'provider.saved': ['name'],
  'provider.removed': ['name'],
  'provider.moved': ['name', 'position'],
  'audit.summary': ['count', 'of']
};

/** Whether the sentence of an entry of `type` says its detail field `field` ({@link auditSentence}). */
export function saidBySentence(type: string, field: string): boolean {
  return Object.hasOwn(SAID_BY_SENTENCE, type) && SAID_BY_SENTENCE[type]!.includes(field);
}

/** Labels of the types whose sentence needs the entry's detail. */
const LABELS: Record<string, string> = {
  'inbox.answered': 'Answers in the Inbox',
  'inbox.withdrawn': 'Questions withdrawn',
  'task.created': 'Tasks received',
  'task.status': 'Task status changes',
  'task.result-retrieved': 'Results fetched',
  'task.cancelled': 'Tasks cancelled',
  'task.expired': 'Tasks expired',
  'tool.called': 'Tool calls',
  'tool.call-ended': 'Tool calls ended',
  'tool.task-ended': 'Tool tasks ended',
  'tool.task-cancelled-late': 'Tool tasks cancelled after their call',
  'server.state': 'Connection changes',
  'server.added': 'Servers added',
  'sampling.request': 'Model request decisions',
  'sampling.llm': 'Model calls',
  'sampling.completion': 'Model answer decisions',
  'sampling.policy-changed': 'Model request policy changes',
  'assistant.policy-changed': 'Assistant policy changes',
  'assistant.tool-decision': 'Decisions on the assistant’s tool calls',
  'audit.summary': 'Entries held back'
};

/** An entry type in a short label, without an entry's detail (what a summary counts). */
export function auditLabel(entry: Pick<AuditEntry, 'type'>): string {
  return Object.hasOwn(LABELS, entry.type) ? LABELS[entry.type]! : auditSentence({ type: entry.type, detail: {} });
}

/** A server's settings in words, by the names `server.updated` records (a transport's field by field). */
const SETTING_WORDS: Record<string, string> = {
  name: 'name',
  autoConnect: 'automatic connection',
  protocol: 'protocol version',
  transport: 'transport',
  'transport.url': 'URL',
  'transport.headers': 'headers',
  'transport.command': 'command',
  'transport.args': 'arguments',
  'transport.cwd': 'working directory',
  'transport.env': 'environment variables'
};

function capitalized(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Detail fields whose value is a duration in milliseconds (a task's ttl, a wait): the Audit log
 * shows them in words ("10 min"), the log and its export keep the number.
 */
export const AUDIT_DURATION_FIELDS: ReadonlySet<string> = new Set(['ttl', 'requestedTtl', 'retryAfterMs', 'pausedMs']);

/**
 * Detail fields whose own name is code, in words; the rest (`tool`, `reason`, `kind`, the ids) read
 * as they are.
 */
const FIELD_WORDS: Record<string, string> = {
  ttl: 'kept for',
  requestedTtl: 'asked for',
  retryAfterMs: 'retry after',
  pausedMs: 'paused for',
  protocolVersion: 'speaks',
  era: 'speaks',
  serverInfo: 'server program',
  statusMessage: 'status message',
  relatedTaskId: 'asked for task',
  // What a question or model request came from ("tool ask-name"), as its Inbox item says it ("for tool …").
  origin: 'asked for',
  providerId: 'provider id',
  baseURL: 'base URL',
  hasKey: 'key stored',
  keyOrigin: 'key was for',
  keyDroppedFor: 'key deleted, was for',
  modelsListed: 'models listed',
  modelsNotListed: 'models not listed',
  reviewCompletion: 'answers reviewed',
  alwaysAllow: 'always allowed',
  cancelledBy: 'cancelled by',
  movedTo: 'moved to',
  clientId: 'client id',
  toolCallId: 'tool call id',
  conversationId: 'conversation id',
  callId: 'call id',
  // An imported server's name in the file it came from.
  key: 'named there',
  // A sign-in made in the person's browser.
  browser: 'in the browser',
  withoutBrowser: 'without a browser',
  keyAlgorithm: 'key algorithm',
  // Taskdesk's own id for a tool call it follows as a task (History's `requested:` entry).
  outboundId: 'Taskdesk’s task id',
  // Asked for a request of Taskdesk's that was no task (the Task column says it).
  relatedCall: 'asked for your request',
  modelFile: 'model file',
  previousName: 'was named',
  atArrival: 'on arrival',
  tasksCancel: 'cancelling the task',
  // Work Taskdesk found unfinished at its start: when it began, and when it was last seen running.
  startedAt: 'started at',
  lastSeenAt: 'last seen at',
  // A summary of held-back entries: some of their tasks, and the last one's detail.
  sampleTaskIds: 'some of their tasks',
  last: 'the last held back',
  // What `limitEntry` cut to keep the entry small: each field and its length before.
  truncated: 'cut short'
};

/**
 * Detail fields whose own name reads as a word already ("tool", "reason"): shown as they are.
 * With {@link FIELD_WORDS} they are every field the core writes (a test walks the core for them),
 * so that a field added with a name in code is worded before the Audit log shows it.
 */
const PLAIN_FIELDS: ReadonlySet<string> = new Set([
  'action',
  'arguments',
  'by',
  'bytes',
  'changed',
  'count',
  'decision',
  'edited',
  'error',
  'from',
  'issuer',
  'kind',
  'message',
  'mode',
  'model',
  'name',
  'of',
  'outcome',
  'position',
  'question',
  'reason',
  'revocation',
  'state',
  'status',
  'to',
  'tool',
  'transport'
]);

/** A detail field's name as the Audit log shows it: in words where its own name is code. */
export function auditFieldWords(name: string): string {
  return Object.hasOwn(FIELD_WORDS, name) ? FIELD_WORDS[name]! : name;
}

/** Whether the Audit log has words for a detail field: its own ({@link FIELD_WORDS}), or a name that reads as one. */
export function auditFieldWorded(name: string): boolean {
  return Object.hasOwn(FIELD_WORDS, name) || PLAIN_FIELDS.has(name);
}
