import { useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';

/** What a confirmation asks. */
export interface ConfirmRequest {
  title: string;
  /**
   * What it asks, in a sentence or two. The dialog renders inside the Desk, so an element of a
   * component that reads the Desk's state (`useDeskState`) follows what changes while it is open.
   */
  body: ReactNode;
  /** The agreeing button's words: text, or an element that follows the Desk's state as `body` may. */
  confirmLabel: ReactNode;
  /**
   * The safe answer's words (Cancel by default): another where "Cancel" would read as the very
   * action next to the button that asked (a running task's Cancel beside its Forget).
   */
  cancelLabel?: string;
  /** The confirm button looks destructive. */
  danger?: boolean;
}

/** Asks questions in the one modal dialog; `ask` resolves true when the user agrees. */
export class Confirmer {
  #pending: { request: ConfirmRequest; resolve: (agreed: boolean) => void } | undefined;
  readonly #listeners = new Set<() => void>();

  readonly ask = (request: ConfirmRequest): Promise<boolean> =>
    new Promise((resolve) => {
      this.#pending?.resolve(false);
      this.#pending = { request, resolve };
      this.#changed();
    });

  readonly pending = () => this.#pending;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  answer(agreed: boolean): void {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#changed();
    pending?.resolve(agreed);
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}

/**
 * The platform's modal `<dialog>` for confirmations: it traps focus and closes on Escape. The
 * safe answer (Cancel) has focus first, so an accidental Enter does not agree.
 */
export function ConfirmDialog({ confirmer }: { confirmer: Confirmer }) {
  const pending = useSyncExternalStore(confirmer.subscribe, confirmer.pending);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [shown, setShown] = useState<ConfirmRequest | undefined>(undefined);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (pending) {
      setShown(pending.request);
      element.returnValue = '';
      if (!element.open) element.showModal();
      cancel.current?.focus();
    } else if (element.open) element.close();
  }, [pending]);

  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={() => {
        if (confirmer.pending()) confirmer.answer(dialog.current?.returnValue === 'confirm');
      }}
    >
      <form method="dialog">
        <h2 id={titleId}>{shown?.title}</h2>
        <div id={bodyId} className="dialog-body">
          {shown?.body}
        </div>
        <div className="actions">
          <button type="submit" value="confirm" className={shown?.danger ? 'primary danger' : 'primary'}>
            {shown?.confirmLabel}
          </button>
          <button type="submit" value="cancel" ref={cancel}>
            {shown?.cancelLabel ?? 'Cancel'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
