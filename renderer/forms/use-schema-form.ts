import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { readSchemaForm, type SchemaField } from '../../app/contract/schema-fields.js';
import {
  formFields,
  initialValues,
  readField,
  WHOLE_ARGUMENTS,
  type RawValue,
  type SchemaFormMode
} from './schema-values.js';

/** What a form read from its fields: the values, or the message of each field that cannot be read. */
export type FormRead = { ok: true; values: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** The state of one schema form: its fields, what is typed in them, their errors, and focus. */
export interface SchemaFormState {
  fields: SchemaField[];
  mode: SchemaFormMode;
  values: Record<string, RawValue>;
  errors: Record<string, string>;
  setValue: (name: string, value: RawValue) => void;
  setErrors: (errors: Record<string, string>) => void;
  controlRef: (name: string, element: HTMLElement | null) => void;
  /** Reads every field into the object to send (the whole-arguments field spreads into it). */
  read: () => FormRead;
  /** Focuses the first field (in form order) that has a message in `errors`; false when none does. */
  focusFirst: (errors: Record<string, string>) => boolean;
  /** Shows the messages on their fields and, once they are on screen, focuses the first of them. */
  showErrors: (errors: Record<string, string>) => void;
}

/**
 * A schema form's state, built once from `schema`. `check` is the host's own check of the
 * values read (elicitation answers), run on a field as it changes once messages are shown.
 */
export function useSchemaForm(
  schema: unknown,
  mode: SchemaFormMode,
  check?: (values: Record<string, unknown>) => Record<string, string>
): SchemaFormState {
  const fields = useMemo(() => formFields(readSchemaForm(schema), mode), [schema, mode]);
  const [values, setValues] = useState(() => initialValues(fields, mode));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const controls = useRef(new Map<string, HTMLElement>());

  /** Set once messages were shown (a submit found problems): from then on fields are checked as they change. */
  const checking = useRef(false);
  // A field is checked again as it changes once messages are shown: a message goes as soon as
  // the value is right, and changes with it. Before any submit, typing is left alone.
  const setValue = useCallback(
    (name: string, value: RawValue) => {
      setValues((old) => ({ ...old, [name]: value }));
      setErrors((old) => {
        const field =
          old[name] === undefined && !checking.current
            ? undefined
            : fields.find((candidate) => candidate.name === name);
        if (!field) return old;
        const control = controls.current.get(name);
        const read = readField(field, mode, value, control instanceof HTMLInputElement && control.validity.badInput);
        // Only this field's message counts: the others are checked as they change.
        const checked =
          read.ok && check ? check(read.value === undefined ? {} : { [name]: read.value })[name] : undefined;
        const result = checked === undefined ? read : { ok: false as const, message: checked };
        if (result.ok) {
          if (old[name] === undefined) return old;
          const { [name]: _fixed, ...rest } = old;
          return rest;
        }
        return result.message === old[name] ? old : { ...old, [name]: result.message };
      });
    },
    [fields, mode, check]
  );
  const controlRef = useCallback((name: string, element: HTMLElement | null) => {
    if (element) controls.current.set(name, element);
    else controls.current.delete(name);
  }, []);

  const read = (): FormRead => {
    const out: Record<string, unknown> = {};
    const problems: Record<string, string> = {};
    for (const field of fields) {
      const control = controls.current.get(field.name);
      const badInput = control instanceof HTMLInputElement && control.validity.badInput;
      const result = readField(field, mode, values[field.name], badInput);
      if (!result.ok) problems[field.name] = result.message;
      else if (result.value !== undefined) {
        if (field.name === WHOLE_ARGUMENTS) Object.assign(out, result.value);
        else out[field.name] = result.value;
      }
    }
    return Object.keys(problems).length > 0 ? { ok: false, errors: problems } : { ok: true, values: out };
  };

  const focusFirst = (wrong: Record<string, string>): boolean => {
    const first = fields.find((field) => wrong[field.name] !== undefined);
    const control = first && controls.current.get(first.name);
    control?.focus();
    return !!control;
  };

  const focusPending = useRef(false);
  const showErrors = (wrong: Record<string, string>) => {
    focusPending.current = true;
    checking.current = true;
    setErrors(wrong);
  };
  useLayoutEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    focusFirst(errors);
  });

  return { fields, mode, values, errors, setValue, setErrors, controlRef, read, focusFirst, showErrors };
}
