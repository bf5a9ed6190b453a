/**
 * What makes a message one of a kind said together: several of the same `key` announced before
 * the live region takes them, whatever was said between them, are said as one sentence,
 * `together`'s of all their parts ("New in the inbox: 2 questions from Echo.").
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
   * Says `message`; given a `gathering`, all of its key said before the region takes them are
   * one sentence, in the place of the last of them (what was said before an arrival, such as
   * the approval of the request whose answer arrives, is said first); the other messages keep
   * their order.
   */
  readonly announce = <T>(message: string, gathering?: Gathering<T>): void => {
    this.#pending.push(gathering ? { message, gathering } : { message });
    // The count makes a repeated message a new one, so it is announced again.
    this.#count += 1;
    for (const listener of [...this.#listeners]) listener();
  };

  /**
   * How many messages were announced so far: a new count is a new message for the live region.
   * Cheap (no text is built): the region reads it on every announce, hundreds in a burst.
   */
  readonly count = (): number => this.#count;

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
    /** Each key's parts, and the place of its last message, where its sentence goes. */
    const gathered = new Map<string, { last: number; parts: unknown[] }>();
    this.#pending.forEach(({ gathering }, at) => {
      if (!gathering) return;
      const known = gathered.get(gathering.key);
      if (known) {
        known.parts.push(gathering.part);
        known.last = at;
      } else gathered.set(gathering.key, { last: at, parts: [gathering.part] });
    });
    const said: string[] = [];
    this.#pending.forEach(({ message, gathering }, at) => {
      const known = gathering && gathered.get(gathering.key);
      if (!known) said.push(message);
      // One alone says its own message; several, their gathering's sentence.
      else if (known.last === at) said.push(known.parts.length > 1 ? gathering.together(known.parts) : message);
    });
    return said.join(' ');
  }
}
