import { readSchemaForm } from '../../app/contract/schema-fields.js';
import { formFields } from '../forms/schema-values.js';

/**
 * Whether a form of `requestedSchema` keeps what the person writes in it for its notice, should
 * it be withdrawn: any field it shows does (text as typed, choices and checkboxes as chosen, see
 * `writtenText`); a form with none keeps nothing, so its card must not promise to.
 */
export function keepsTypedText(requestedSchema: unknown): boolean {
  return formFields(readSchemaForm(requestedSchema), 'elicitation').length > 0;
}
