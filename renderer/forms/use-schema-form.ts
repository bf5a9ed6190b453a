import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { readSchemaForm, type SchemaField } from '../../app/contract/schema-fields.js';
import {
  formFields,
  initialValues,
  isWithin,
  readTree,
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
  /** Messages by path: a field's name, or a part's (`edits.0.oldText`). */
  errors: Record<string, string>;
  /** Sets a field's whole value; `changed` is the path of the part that changed (the field's own name by default). */
  setValue: (name: string, value: RawValue, changed?: string) => void;
  setErrors: (errors: Record<string, string>) => void;
  controlRef: (path: string, element: HTMLElement | null) => void;
  /** Reads every field into the object to send (the whole-arguments field spreads into it). */
  read: () => FormRead;
  /** Focuses the first field (in form order) that has a message in `errors`; false when none does. */
  focusFirst: (errors: Record<string, string>) => boolean;
  /** Shows the messages on their fields and, once they are on screen, focuses the first of them. */
  showErrors: (errors: Record<string, string>) => void;
  /** Something was typed, chosen, added or removed: the values are not the ones the form started with. */
  dirty: boolean;
  /**
   * Starts the form again from `start` (what each control holds), with no messages; `dirty` is
   * measured from it. For a form filled with values that were not known when it was built.
   */
  reset: (start: Record<string, RawValue>) => void;
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
  const initial = useMemo(() => initialValues(fields, mode), [fields, mode]);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // What `reset` started the form from, when it was called: the values `dirty` is measured from.
  const [start, setStart] = useState<Record<string, RawValue> | undefined>(undefined);
  const controls = useRef(new Map<string, HTMLElement>());

  /** Set once messages were shown (a submit found problems): from then on fields are checked as they change. */
  const checking = useRef(false);
  const badInput = useCallback((path: string) => {
    const control = controls.current.get(path);
    return control instanceof HTMLInputElement && control.validity.badInput;
  }, []);
  // A field is checked again as it changes once messages are shown: a message goes as soon as
  // the value is right, and changes with it. Before any submit, typing is left alone.
  const setValue = useCallback(
    (name: string, value: RawValue, changed: string = name) => {
      setValues((old) => ({ ...old, [name]: value }));
      setErrors((old) => {
        const field =
          old[changed] === undefined && !checking.current
            ? undefined
            : fields.find((candidate) => candidate.name === name);
        if (!field) return old;
        const read = readTree(field, mode, value, name, badInput);
        const problems = { ...read.problems };
        if (check && problems[name] === undefined) {
          // Only this field's message counts: the others are checked as they change.
          const checked = check(read.value === undefined ? {} : { [name]: read.value })[name];
          if (checked !== undefined) problems[name] = checked;
        }
        // Within the field, a part's message is updated or goes; only the part that changed gets a new one.
        const next = Object.fromEntries(Object.entries(old).filter(([key]) => !isWithin(key, name)));
        for (const key of new Set([...Object.keys(old).filter((key) => isWithin(key, name)), changed])) {
          if (problems[key] !== undefined && (old[key] !== undefined || key === changed)) next[key] = problems[key];
        }
        const same =
          Object.keys(next).length === Object.keys(old).length &&
          Object.entries(next).every(([key, message]) => old[key] === message);
        return same ? old : next;
      });
    },
    [fields, mode, check, badInput]
  );
  const controlRef = useCallback((path: string, element: HTMLElement | null) => {
    if (element) controls.current.set(path, element);
    else controls.current.delete(path);
  }, []);

  const read = (): FormRead => {
    const out: Record<string, unknown> = {};
    const problems: Record<string, string> = {};
    for (const field of fields) {
      const result = readTree(field, mode, values[field.name], field.name, badInput);
      Object.assign(problems, result.problems);
      if (result.value !== undefined) {
        if (field.name === WHOLE_ARGUMENTS) Object.assign(out, result.value);
        else out[field.name] = result.value;
      }
    }
    return Object.keys(problems).length > 0 ? { ok: false, errors: problems } : { ok: true, values: out };
  };

  // The first control (in the page's order) of a path with a message, or of a part of it: an
  // object's message goes to its first field's control, a list's to its first entry or its Add.
  const focusFirst = (wrong: Record<string, string>): boolean => {
    const paths = Object.keys(wrong);
    let first: HTMLElement | undefined;
    for (const [key, control] of controls.current) {
      if (!paths.some((path) => isWithin(key, path))) continue;
      if (!first || first.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_PRECEDING) first = control;
    }
    first?.focus();
    return !!first;
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

  const dirty = JSON.stringify(values) !== JSON.stringify(start ?? initial);

  const reset = useCallback((from: Record<string, RawValue>) => {
    setStart(from);
    setValues(from);
    setErrors({});
    checking.current = false;
  }, []);

  return { fields, mode, values, errors, setValue, setErrors, controlRef, read, focusFirst, showErrors, dirty, reset };
}
