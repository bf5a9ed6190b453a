/**
 * What the page says to screen readers: one polite live region, fed from anywhere (the store
 * announces arrivals, forms announce what they sent).
 */
export class Announcer {
  #message = '';
  #count = 0;
  readonly #listeners = new Set<() => void>();

  readonly announce = (message: string): void => {
    this.#message = message;
    // The count makes a repeated message a new one, so it is announced again.
    this.#count += 1;
    for (const listener of [...this.#listeners]) listener();
  };

  readonly current = (): { message: string; count: number } => ({ message: this.#message, count: this.#count });

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };
}
