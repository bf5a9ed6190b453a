import { SchemaFields } from './schema-fields.js';
import type { SchemaFormState } from './use-schema-form.js';

/** A tool's argument fields from its schema form, or a line saying it takes none (Tools screen, approval card). */
export function ArgumentFields({ form }: { form: SchemaFormState }) {
  return form.fields.length > 0 ? (
    <SchemaFields
      fields={form.fields}
      mode="arguments"
      values={form.values}
      errors={form.errors}
      onChange={form.setValue}
      controlRef={form.controlRef}
    />
  ) : (
    <p className="muted">This tool takes no arguments.</p>
  );
}
