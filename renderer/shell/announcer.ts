/**
 * What the page says to screen readers: one polite live region, fed from anywhere (the store
 * announces arrivals, forms announce what they sent).
 */
export class Announcer {
  /** Said since the region last took them: several in one frame are said together, none lost. */
  #pending: string[] = [];
  #count = 0;
  readonly #listeners = new Set<() => void>();

  readonly announce = (message: string): void => {
    this.#pending.push(message);
    // The count makes a repeated message a new one, so it is announced again.
    this.#count += 1;
    for (const listener of [...this.#listeners]) listener();
  };

  readonly current = (): { message: string; count: number } => ({
    message: this.#pending.join(' '),
    count: this.#count
  });

  /** What the live region says now: every message since it last took them, in order, as one text. */
  readonly take = (): string => {
    const text = this.#pending.join(' ');
    this.#pending = [];
    return text;
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };
}
