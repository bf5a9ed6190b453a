import type { InboxDraftValues } from '../../app/contract/host-api.js';
import type { SchemaField } from '../../app/contract/schema-fields.js';
import { controlKind, initialValues, optionValue, selectChoices, type RawValue } from '../forms/schema-values.js';
import type { TextEdits } from './request-edits.js';

/**
 * A form's values started from a kept draft: the draft over the form's own start, or undefined
 * when there is none or it no longer fits the form (a field it names is gone, or holds what its
 * control cannot): a stale draft is dropped, never half used.
 */
export function restoredFormValues(
  fields: SchemaField[],
  kept: InboxDraftValues | undefined
): Record<string, RawValue> | undefined {
  if (kept === undefined) return undefined;
  const start = initialValues(fields, 'elicitation');
  for (const [name, value] of Object.entries(kept)) {
    const field = fields.find((candidate) => candidate.name === name);
    if (!field || !fitsControl(field, value)) return undefined;
    start[name] = value;
  }
  return start;
}

/** Whether `value` is something the field's control can hold. */
function fitsControl(field: SchemaField, value: unknown): value is RawValue {
  switch (controlKind(field, 'elicitation')) {
    case 'input':
      return typeof value === 'string';
    case 'select':
      return (
        typeof value === 'string' &&
        (value === '' ||
          selectChoices(field, 'elicitation').some(
            (choice, index) => optionValue(choice, index, 'elicitation') === value
          ))
      );
    case 'checkbox':
      return typeof value === 'boolean';
    case 'checkboxes':
      return (
        Array.isArray(value) &&
        new Set(value).size === value.length &&
        value.every((index) => typeof index === 'string' && /^\d+$/.test(index) && Number(index) < field.choices.length)
      );
    default:
      return false;
  }
}

/** What a person was writing as a sampling request's reply, when the kept draft is one. */
export type ReplyDraft = { reply: string; model: string };

/** The reply card's kept draft, or undefined when there is none or it is no reply draft. */
export function restoredReply(kept: InboxDraftValues | undefined): ReplyDraft | undefined {
  if (kept === undefined) return undefined;
  const { reply, model, ...rest } = kept;
  return typeof reply === 'string' && typeof model === 'string' && Object.keys(rest).length === 0
    ? { reply, model }
    : undefined;
}

/**
 * What a person changed on a sampling approval card before approving: the request's texts
 * ({@link TextEdits}), and the model and provider to run it on, each only when changed.
 */
export interface ApprovalEdits extends TextEdits {
  model?: string;
  providerId?: string;
}

/** What a person was doing on a sampling approval card: changing the request, writing the reply instead, or both. */
export interface ApprovalDraft {
  edits: ApprovalEdits | null;
  reply: ReplyDraft | null;
}

/** What a kept approval draft must fit: the request's text slots' keys and the providers there are. */
export interface ApprovalFit {
  slots: string[];
  providers: string[];
}

/**
 * An approval card's draft as it is kept: the reply being written as the reply card keeps it
 * (`reply`, `model`), and the request's `edits`; null when there is neither.
 */
export function approvalDraftValues(draft: ApprovalDraft): InboxDraftValues | null {
  if (draft.edits === null && draft.reply === null) return null;
  return {
    ...(draft.reply && { reply: draft.reply.reply, model: draft.reply.model }),
    ...(draft.edits && { edits: draft.edits })
  };
}

/**
 * The approval card's kept draft ({@link approvalDraftValues}), or undefined when there is none
 * or any of it no longer fits: a text slot the request lacks, a provider that is gone, a value of
 * another kind or a key of another card's draft.
 */
export function restoredApproval(kept: InboxDraftValues | undefined, fit: ApprovalFit): ApprovalDraft | undefined {
  if (kept === undefined) return undefined;
  const { edits, ...rest } = kept;
  const reply = Object.keys(rest).length === 0 ? null : restoredReply(rest);
  if (reply === undefined) return undefined;
  if (edits === undefined) return reply === null ? undefined : { edits: null, reply };
  const restored = restoredEdits(edits, fit);
  return restored && { edits: restored, reply };
}

function restoredEdits(value: unknown, fit: ApprovalFit): ApprovalEdits | undefined {
  if (!isRecord(value)) return undefined;
  const { system, texts, model, providerId, ...rest } = value;
  if (Object.keys(rest).length > 0) return undefined;
  if (system !== undefined && typeof system !== 'string') return undefined;
  if (model !== undefined && typeof model !== 'string') return undefined;
  if (providerId !== undefined && (typeof providerId !== 'string' || !fit.providers.includes(providerId)))
    return undefined;
  if (
    texts !== undefined &&
    !(
      isRecord(texts) &&
      Object.entries(texts).every(([key, text]) => fit.slots.includes(key) && typeof text === 'string')
    )
  )
    return undefined;
  const edits: ApprovalEdits = {
    ...(system !== undefined && { system }),
    ...(texts !== undefined && { texts: texts as Record<string, string> }),
    ...(model !== undefined && { model }),
    ...(providerId !== undefined && { providerId })
  };
  return Object.keys(edits).length === 0 ? undefined : edits;
}

/** A reviewed answer's draft as it is kept: its text as the person edited it; null when unchanged. */
export function reviewDraftValues(answer: string, original: string): InboxDraftValues | null {
  return answer === original ? null : { answer };
}

/** The text a review card's kept draft holds, or undefined when there is none, it is no review's, or the answer cannot be edited. */
export function restoredAnswer(kept: InboxDraftValues | undefined, editable: boolean): string | undefined {
  if (kept === undefined || !editable) return undefined;
  const { answer, ...rest } = kept;
  return typeof answer === 'string' && Object.keys(rest).length === 0 ? answer : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
