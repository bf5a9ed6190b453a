/**
 * What makes a message one of a kind said together: several of the same `key` announced one
 * right after another, before the live region takes them, are said as one sentence, `together`'s
 * of all their parts ("New in the inbox: 2 questions from Echo.").
 */
export interface Gathering<T> {
  readonly key: string;
  readonly part: T;
  together(parts: readonly T[]): string;
}

/**
 * What the page says to screen readers: one polite live region, fed from anywhere (the store
 * announces arrivals, forms announce what they sent).
 */
export class Announcer {
  /** Said since the region last took them: several in one frame are said together, none lost. */
  #pending: Array<{ message: string; gathering?: Gathering<unknown> }> = [];
  #count = 0;
  readonly #listeners = new Set<() => void>();

  /**
   * Says `message`; given a `gathering`, one said next to others of its key is said with them, as
   * one sentence, in the place of the first (a message between them keeps them apart, in order).
   */
  readonly announce = <T>(message: string, gathering?: Gathering<T>): void => {
    this.#pending.push(gathering ? { message, gathering } : { message });
    // The count makes a repeated message a new one, so it is announced again.
    this.#count += 1;
    for (const listener of [...this.#listeners]) listener();
  };

  readonly current = (): { message: string; count: number } => ({
    message: this.#text(),
    count: this.#count
  });

  /** What the live region says now: every message since it last took them, in order, as one text. */
  readonly take = (): string => {
    const text = this.#text();
    this.#pending = [];
    return text;
  };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  #text(): string {
    const said: string[] = [];
    for (let index = 0; index < this.#pending.length;) {
      const { message, gathering } = this.#pending[index]!;
      let end = index + 1;
      while (gathering && end < this.#pending.length && this.#pending[end]!.gathering?.key === gathering.key) end += 1;
      said.push(
        end - index > 1
          ? gathering!.together(this.#pending.slice(index, end).map((pending) => pending.gathering!.part))
          : message
      );
      index = end;
    }
    return said.join(' ');
  }
}
