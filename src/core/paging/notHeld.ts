// THE mark of what a page's body stands in for without holding it: the rows a walk streamed to its output
// as they arrived (placeholderRows: their count, a sample's share of objects, the rest holes), the part
// of a field too large to keep that the rows rule reads (rowsSummary), and the names of the fields that
// were too large to keep at all (left out of the body, or kept as a word in their place; past
// NAMES_NOT_HELD of them only counted, except the names a check reads, so a map of a million records
// costs no memory per record). Contract drift,
// the one reader that compares a body's parts with what they should be, asks here, so a row not held is
// never read as a row received: JSON has no holes, and a sample's `{}` or `0` is no value the server sent.
// Assertions and a later request read the body's own text (kept in a spill file while its rows stream),
// and the panel puts the rows it reads back in place of the stand-ins (withRowsAt): neither reads a stand-in.
// A walk's page whose rows streamed past keeps its first rows as they passed (heldHead): drift compares
// those, as many as it compares of rows held, and never an item of the stand-in itself.

/**
 * The mark, a symbol-keyed property of the stand-in itself (JSON.stringify and Object.keys skip it), known
 * to every bundle. Set by assignment: all stand-ins share one shape, so marking costs next to nothing (a
 * body of 200 000 small arrays has as many; defineProperty cost 0.4 µs each, assignment none measurable).
 */
const NOT_HELD: unique symbol = Symbol.for('apiWorkbench.notHeld');

/** An array or object of a page's body that stands for a part not held. */
type NotHeld<T extends object> = T & { readonly [NOT_HELD]: true };

/** Marks `value` as a stand-in for a part of the body not held (placeholderRows, rowsSummary); returns it. */
export function markNotHeld<T extends object>(value: T): NotHeld<T> {
  (value as { [NOT_HELD]?: true })[NOT_HELD] = true;
  return value as NotHeld<T>;
}

/** Whether `value` stands for a part of the body that was not held: its items or fields are none the server sent. */
export function isNotHeld(value: unknown): value is NotHeld<object> {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, NOT_HELD);
}

/** The word a field too large to keep holds in its place when its name must stay in the body (markFieldNotHeld notes it). */
export const TOO_LARGE_TO_KEEP = '(a value too large to keep)';

const FIELDS_NOT_HELD: unique symbol = Symbol.for('apiWorkbench.fieldsNotHeld');

/**
 * How many names of fields not held one object notes (besides those it must: `always`); past them it only
 * counts them. A body that is one map of a million records, past the skeleton's budget, would otherwise
 * hold a million names: memory growing with the body, which its values never cost.
 */
export const NAMES_NOT_HELD = 1000;

interface FieldsNotHeld {
  /** Each name once: a key given twice is one field, as JSON.parse makes it. */
  readonly names: Set<string>;
  /**
   * Fields too large to keep that arrived past NAMES_NOT_HELD: counted, not named. An upper bound: a key
   * given twice among them, or one given again later and kept, still counts (telling them apart would
   * mean holding the names the bound saves), so it says "up to", never fewer than there are.
   */
  unnamed: number;
}

function notHeldOf(object: object): FieldsNotHeld | undefined {
  const marked = object as { [FIELDS_NOT_HELD]?: FieldsNotHeld };
  return Object.hasOwn(marked, FIELDS_NOT_HELD) ? marked[FIELDS_NOT_HELD] : undefined;
}

/** `object`'s notes, made empty where it has none. */
function notHeldFor(object: object): FieldsNotHeld {
  const notHeld = notHeldOf(object);
  if (notHeld) return notHeld;
  const made: FieldsNotHeld = { names: new Set(), unnamed: 0 };
  Object.defineProperty(object, FIELDS_NOT_HELD, { value: made, enumerable: false });
  return made;
}

/**
 * Notes on `object` (a body or a field of it) that its field `name` arrived but was too large to keep. Not
 * enumerable: a spread or Object.assign of the body does not carry it, and a comparison of bodies ignores it.
 * Named among the first NAMES_NOT_HELD, or whenever `always` (a field a check reads by its name); counted past them.
 */
export function markFieldNotHeld(object: object, name: string, always = false): void {
  const notHeld = notHeldFor(object);
  if (notHeld.names.has(name)) return;
  if (always || notHeld.names.size < NAMES_NOT_HELD) notHeld.names.add(name);
  else notHeld.unnamed++;
}

/** Notes on `object` that `count` more of its fields arrived too large to keep, their names not known. */
export function countFieldsNotHeld(object: object, count: number): void {
  if (count <= 0) return;
  const notHeld = notHeldFor(object);
  notHeld.unnamed += count;
}

/**
 * The field `name` of `object` is now held (a later copy of a key JSON.parse keeps the last of): a mark that it was too
 * large to keep no longer stands for it.
 */
export function forgetFieldNotHeld(object: object, name: string): void {
  notHeldOf(object)?.names.delete(name);
}

/** The fields of `object` that arrived but were too large to keep and are named: absent, or a word in their place. */
export function fieldsNotHeld(object: object): readonly string[] {
  const notHeld = notHeldOf(object);
  return notHeld ? [...notHeld.names] : [];
}

/** At most how many more fields of `object` arrived too large to keep than fieldsNotHeld names (past NAMES_NOT_HELD). */
export function fieldsNotHeldUnnamed(object: object): number {
  return notHeldOf(object)?.unnamed ?? 0;
}

/** `to` (a copy of `from`) notes the same fields not held as `from`. */
export function copyFieldsNotHeld(from: object, to: object): void {
  const notHeld = notHeldOf(from);
  if (!notHeld) return;
  const copy = notHeldFor(to);
  for (const name of notHeld.names) copy.names.add(name);
  copy.unnamed += notHeld.unnamed;
}

/** How many of a page's first rows a walk holds when its rows stream past (as many as contract drift compares). */
export const HEAD_ROWS_HELD = 200;

const HELD_HEAD: unique symbol = Symbol.for('apiWorkbench.heldHead');

/**
 * Notes on a stand-in for rows not held (placeholderRows) the first of those rows, as received (parsed from
 * the lines that passed): the only items of it a reader may take as rows. Not enumerable.
 */
export function markHeldHead(standIn: readonly unknown[], head: readonly unknown[]): void {
  if (!isNotHeld(standIn) || Object.hasOwn(standIn, HELD_HEAD)) return;
  Object.defineProperty(standIn, HELD_HEAD, { value: head, enumerable: false });
}

/** The first rows of a stand-in that were received and held (markHeldHead), or undefined. */
export function heldHead(value: object): readonly unknown[] | undefined {
  return Object.hasOwn(value, HELD_HEAD) ? (value as { [HELD_HEAD]?: readonly unknown[] })[HELD_HEAD] : undefined;
}
