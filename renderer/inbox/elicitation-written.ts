import type { SchemaField } from '../../app/contract/schema-fields.js';
import { controlKind, initialValues, optionValue, selectChoices, type RawValue } from '../forms/schema-values.js';

/** How a choice emptied (the select's "(none)", or every box of a group unticked) is written. */
const NONE = '(none)';

/**
 * What the person put into a question's form, changed from what it came with, a line each by
 * label ("Region: north"), in the form's order; empty when nothing was. Kept should the question
 * be withdrawn: what they chose is their work as much as what they typed.
 *
 * Text, number and date fields as typed (blanks are not kept); a choice by the title shown for
 * it; a checkbox, or an optional Yes/No, as Yes or No; checkboxes by their titles, in the form's
 * order. A field put back as it came is not kept.
 */
export function writtenText(fields: SchemaField[], values: Record<string, RawValue>): string {
  const initial = initialValues(fields, 'elicitation');
  return fields
    .flatMap((field) => {
      const value = values[field.name];
      const words = fieldWords(field, value, initial[field.name]);
      return words === undefined ? [] : [`${field.label}: ${words}`];
    })
    .join('\n');
}

/** One field's value as the notice writes it, or undefined when it is as the form started or holds nothing to keep. */
function fieldWords(
  field: SchemaField,
  value: RawValue | undefined,
  initial: RawValue | undefined
): string | undefined {
  switch (controlKind(field, 'elicitation')) {
    case 'input':
      return typeof value === 'string' && value.trim() !== '' && value !== initial ? value : undefined;
    case 'select': {
      if (typeof value !== 'string' || value === (initial ?? '')) return undefined;
      if (value === '') return NONE;
      const choice = selectChoices(field, 'elicitation').find(
        (option, index) => optionValue(option, index, 'elicitation') === value
      );
      return choice?.label ?? value;
    }
    case 'checkbox':
      return typeof value === 'boolean' && value !== (initial === true) ? (value ? 'Yes' : 'No') : undefined;
    case 'checkboxes': {
      if (!Array.isArray(value)) return undefined;
      const chosen = field.choices.filter((_choice, index) => value.includes(String(index)));
      const before = Array.isArray(initial) ? initial : [];
      // Ticked in another order is the same choice.
      if (field.choices.every((_choice, index) => value.includes(String(index)) === before.includes(String(index))))
        return undefined;
      return chosen.length === 0 ? NONE : chosen.map((choice) => choice.label).join(', ');
    }
    default:
      // Fields a question cannot show (nested values) hold nothing the person put there.
      return undefined;
  }
}
