/**
 * A value derived from one object of the Desk's state, computed once for each object it is given.
 *
 * The Desk's reducer replaces an object of its state (`outbound`, `calls`) whenever it changes one
 * of its entries, and never changes one in place: a selector that every card of a screen runs on
 * every store update (each progress notification) can then look up an index built once for that
 * state, rather than scan every task for each card. Kept in a `WeakMap`, so an index of a state
 * gone goes with it.
 */
export function derivedOf<Source extends object, Value>(derive: (source: Source) => Value): (source: Source) => Value {
  const derived = new WeakMap<Source, { value: Value }>();
  return (source) => {
    const known = derived.get(source);
    if (known) return known.value;
    const value = derive(source);
    derived.set(source, { value });
    return value;
  };
}

/** {@link derivedOf} of two objects of the Desk's state: computed once for each pair of them. */
export function derivedOfBoth<First extends object, Second extends object, Value>(
  derive: (first: First, second: Second) => Value
): (first: First, second: Second) => Value {
  const byFirst = derivedOf((first: First) => derivedOf((second: Second) => derive(first, second)));
  return (first, second) => byFirst(first)(second);
}
