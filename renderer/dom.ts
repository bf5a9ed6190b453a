/** A child `h` accepts: text (always inserted as text, never parsed as HTML), a node, or nothing. */
export type Child = string | number | Node | null | undefined | false | Child[];

/** Attribute values; a function under an `on…` key becomes an event listener. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: never) => void)>;

/**
 * Creates an element: `h('button', { type: 'button', onclick: … }, 'Save')`.
 *
 * `value` and `checked` are set as properties (what a form reads); `true` sets an empty
 * attribute, `false`, `null` and `undefined` leave it out. Text children are text nodes, so
 * data from a server can never become markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (typeof value === 'function') {
      element.addEventListener(name.slice(2), value as EventListener);
    } else if (name === 'value' && value != null) {
      (element as HTMLInputElement).value = String(value);
    } else if (name === 'checked') {
      (element as HTMLInputElement).checked = value === true;
    } else if (value === true) {
      element.setAttribute(name, '');
    } else if (value !== false && value != null) {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children (see {@link Child}). */
export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else
      parent.appendChild(
        typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child
      );
  }
}

/** Replaces all children of an element. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let nextId = 0;

/** A document-unique id for label/description wiring. */
export function uid(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/** A `<time>` element with a machine-readable value. */
export function timeElement(iso: string | undefined): HTMLElement {
  if (!iso) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return h('span', null, iso);
  return h('time', { datetime: iso }, formatDateTime(date));
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A date as the user's locale writes it. */
export function formatDateTime(date: Date): string {
  return dateTimeFormat.format(date);
}

/** A duration (a ttl) in the largest whole units that fit, e.g. "1 h 30 min", "45 s". */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, seconds] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1]
  ] as const) {
    const amount = Math.floor(rest / seconds);
    if (amount > 0) parts.push(`${amount} ${unit}`);
    rest -= amount * seconds;
  }
  return parts.length > 0 ? parts.join(' ') : `${ms} ms`;
}

/** A long random id shortened for display; the full id stays available to copy. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
