import { readSchemaForm, type SchemaField } from '../../app/contract/schema-fields.js';
import { controlKind, formFields, initialValues, type RawValue } from '../forms/schema-values.js';

/**
 * What was typed into a form's text and number fields, changed from what it came with, a line
 * each ("Region: north"); empty when nothing was. Choices and checkboxes are not typed: not kept.
 */
export function typedText(fields: SchemaField[], values: Record<string, RawValue>): string {
  const initial = initialValues(fields, 'elicitation');
  return fields
    .filter((field) => controlKind(field, 'elicitation') === 'input')
    .flatMap((field) => {
      const value = values[field.name];
      return typeof value === 'string' && value.trim() !== '' && value !== initial[field.name]
        ? [`${field.label}: ${value}`]
        : [];
    })
    .join('\n');
}

/**
 * Whether a form of `requestedSchema` has a field whose text {@link typedText} keeps: a form of
 * choices and checkboxes only keeps nothing, so its card must not promise to.
 */
export function keepsTypedText(requestedSchema: unknown): boolean {
  return formFields(readSchemaForm(requestedSchema), 'elicitation').some(
    (field) => controlKind(field, 'elicitation') === 'input'
  );
}
