import { useId, type ReactNode } from 'react';

/** The ids and attributes a control takes from its {@link FieldFrame}. */
export interface FieldWiring {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** An id for a field, safe in CSS selectors (`#id-error`), unique in the document. */
export function useFieldId(name: string): string {
  const unique = useId().replace(/[^A-Za-z0-9_-]/g, '');
  return `field-${name.replace(/[^A-Za-z0-9_-]/g, '_')}-${unique}`;
}

/** Props of {@link FieldFrame}. */
export interface FieldFrameProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  error?: string | undefined;
  className?: string;
  /** The control, given the id and the aria wiring it must carry. */
  children: (wiring: FieldWiring) => ReactNode;
  /** A checkbox puts its label after the control, on one row. */
  checkbox?: boolean;
}

/**
 * A labelled control with its hint and its error: `aria-describedby` points at both, and
 * `aria-invalid` is set while there is an error. The error's id is the control's id + `-error`.
 */
/** The ids a field's hint and error are read by (`aria-describedby`), when it has them. */
export function describedByOf(id: string, hint: unknown, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** A required field's star after its label: seen, not read (the control says it is required). */
export function RequiredMark({ required }: { required: boolean | undefined }) {
  return required ? (
    <span className="required" aria-hidden="true">
      {' *'}
    </span>
  ) : null;
}

export function FieldFrame({ name, label, hint, required, error, className, children, checkbox }: FieldFrameProps) {
  const id = useFieldId(name);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = describedByOf(id, hint, error);
  const wiring: FieldWiring = { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined };
  const labelElement = (
    <label htmlFor={id}>
      {label}
      <RequiredMark required={required} />
    </label>
  );
  const hintElement = hint ? (
    <p className="field-hint" id={hintId}>
      {hint}
    </p>
  ) : null;
  const errorElement = (
    <p className="field-error" id={errorId} hidden={!error}>
      {error ?? ''}
    </p>
  );
  if (checkbox)
    return (
      <div className={`field field-checkbox${className ? ` ${className}` : ''}`}>
        <div className="checkbox-row">
          {children(wiring)}
          {labelElement}
        </div>
        {hintElement}
        {errorElement}
      </div>
    );
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      {labelElement}
      {hintElement}
      {children(wiring)}
      {errorElement}
    </div>
  );
}
