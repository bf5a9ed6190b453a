import type { InboxDraftValues } from '../../app/contract/host-api.js';
import type { SchemaField } from '../../app/contract/schema-fields.js';
import { controlKind, initialValues, optionValue, selectChoices, type RawValue } from '../forms/schema-values.js';

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
