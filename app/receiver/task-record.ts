import { z } from 'zod';
import { jsonText } from '../store/json-text.js';

/** The version of the persisted task record layout; bump it with a migration in `parseTaskRecord`. */
export const TASK_RECORD_VERSION = 1;

export type { TaskView, Outcome } from '../contract/host-api.js';
import { TaskViewSchema, OutcomeSchema } from '../contract/host-api.js';

/** Which server connection a task belongs to. */
export const TaskOwnerSchema = z.object({
  /** The configured server id. */
  serverId: z.string(),
  /** The server's display name when the task was created. */
  serverName: z.string(),
  /**
   * The identity tasks are bound to: the server id plus its transport target and
   * auth context, hashed. Another identity never sees the task.
   */
  identity: z.string()
});
export type TaskOwner = z.infer<typeof TaskOwnerSchema>;

/** The request types a client receives as tasks. */
export const TaskKindSchema = z.enum(['sampling', 'elicitation']);
export type TaskKind = z.infer<typeof TaskKindSchema>;

/** A task as the receiver keeps it, in memory and on disk. */
export const TaskRecordSchema = z.object({
  schemaVersion: z.literal(TASK_RECORD_VERSION),
  task: TaskViewSchema,
  owner: TaskOwnerSchema,
  kind: TaskKindSchema,
  /** The original request params, without `task` and `_meta`. */
  request: z.record(z.string(), z.unknown()),
  /** The request's progress token, valid for the task's whole life. */
  progressToken: z.union([z.string(), z.number()]).optional(),
  /** Absolute expiry time (ms since epoch), or null for none. */
  expiresAt: z.number().nullable(),
  outcome: OutcomeSchema.optional(),
  /** Facts recorded by the runner (model chosen and why, who answered). */
  notes: z.array(z.record(z.string(), z.unknown())).default([]),
  /** Creation order across restarts (ties of `createdAt` included): the order of `tasks/list`. */
  sequence: z.number().int().nonnegative().default(0)
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** Parses a stored record, migrating older layouts; throws a readable error when it cannot. */
export function parseTaskRecord(value: unknown): TaskRecord {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== TASK_RECORD_VERSION) {
    throw new Error(
      `Unsupported task record version ${JSON.stringify(version)} (this Taskdesk reads ${TASK_RECORD_VERSION})`
    );
  }
  const parsed = TaskRecordSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(`Task record does not match its schema: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** A deep copy, so callers never hold an object the receiver mutates later. */
export function copyRecord(record: TaskRecord): TaskRecord {
  // A record is JSON data (it is stored as JSON), and a JSON round trip copies it several
  // times faster than structuredClone; its text is made from the parts the store keeps.
  return JSON.parse(jsonText(record)!) as TaskRecord;
}

/** Notes a task keeps as they come; past this, notes that earlier and later ones repeat go (see {@link withNote}). */
export const NOTES_KEPT = 32;

/** Fields told apart by their value as well as their name when notes go: a runner's phase. */
const VALUED_FIELDS = new Set(['phase']);

/**
 * `notes` with `note` added, bounded: a person who tries a failing model run again and again,
 * or a provider that asks for retries, adds notes each time, and every note is written again with
 * each new version of the record. Past {@link NOTES_KEPT}, the oldest note goes of those for
 * whose every field an earlier note and a later one have that field too (for `phase`, that
 * value): the first and the last note of each field stay, which is all that reads notes looks for
 * (the task a request was asked for: the first; the request as it ran, the phase to resume from:
 * the last; who cancelled, a withdrawal: the only one). So a task keeps its latest notes and at
 * most about twice as many as the fields runners note, however long it runs.
 */
export function withNote(
  notes: ReadonlyArray<Record<string, unknown>>,
  note: Record<string, unknown>
): Array<Record<string, unknown>> {
  const next = [...notes, note];
  if (next.length <= NOTES_KEPT) return next;
  const fieldsOf = (kept: Record<string, unknown>) =>
    Object.entries(kept).map(([field, value]) => (VALUED_FIELDS.has(field) ? `${field}=${String(value)}` : field));
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  next.forEach((kept, index) => {
    for (const field of fieldsOf(kept)) {
      if (!first.has(field)) first.set(field, index);
      last.set(field, index);
    }
  });
  // The oldest note nothing needs goes (one a note added: the latest notes stay, for History).
  const spare = next.findIndex((kept, index) =>
    fieldsOf(kept).every((field) => first.get(field) !== index && last.get(field) !== index)
  );
  if (spare !== -1) next.splice(spare, 1);
  return next;
}

/** The task of Taskdesk's a received request was asked for: the related-task id its runner noted on arrival. */
export function relatedTaskOf(notes: ReadonlyArray<Record<string, unknown>>): string | undefined {
  const related = notes.find((note) => typeof note.relatedTaskId === 'string')?.relatedTaskId;
  return typeof related === 'string' ? related : undefined;
}
