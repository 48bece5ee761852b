// What the objects on an items= path give a streamed body's skeleton besides the rows (pathLanes.ts reads
// them as they pass): the fields a paging step reads inside them (next=data.next beside items=data.rows),
// kept alone, so the path's first object is never held whole for them; and, when that object was too
// large to keep, the names of its other fields (and of the objects on the path inside it), noted as
// arrived but not held (notHeld.ts), so contract drift compares what was held and says which were not:
// each named (the word in its place is never read as a value), past NAMES_NOT_HELD only counted (no word).
import type { PathLanes } from '../json/pathLanes';
import { ownField, setOwnField } from '../json/ownField';
import { countFieldsNotHeld, fieldsNotHeld, forgetFieldNotHeld, markFieldNotHeld, TOO_LARGE_TO_KEEP } from './notHeld';
import { isJsonObject } from '../json/numberText';
import { pathKeys } from './rows';

/**
 * The kept fields (StreamRows.kept) read inside the objects on `path`: those that leave the path at an
 * object on it, below the body's own (each as its keys). Their first key is then no field to keep whole.
 */
export function capturesOn(path: string, kept: readonly string[]): string[][] {
  const keys = pathKeys(path);
  return kept.map(pathKeys).filter((c) => {
    const leaves = c.findIndex((k, j) => k !== keys[j]);
    return leaves >= 1 && leaves < keys.length;
  });
}

/** After the lanes filled the skeleton: the captured fields put in place, the path's first object's notes. */
export function placePathParts(skeleton: Record<string, unknown>, path: string, cut: PathLanes): void {
  const keys = pathKeys(path);
  for (const { keys: at, value } of cut.captured.values()) {
    const holder = objectAt(skeleton, at.slice(0, -1));
    if (holder) setOwnField(holder, at[at.length - 1]!, value);
  }
  if (!fieldsNotHeld(skeleton).includes(keys[0]!) || !isJsonObject(skeleton[keys[0]!])) return;
  // The first object arrived too large to keep: made of its rows and captures, its other fields noted.
  forgetFieldNotHeld(skeleton, keys[0]!);
  let holder: unknown = skeleton;
  for (let depth = 2; depth <= keys.length && isJsonObject(holder); depth++) {
    holder = ownField(holder, keys[depth - 2]!);
    if (!isJsonObject(holder)) return;
    inBodyOrder(holder, cut.namesAt(depth), cut.moreAt(depth));
  }
}

/**
 * `object`'s fields in the order its keys arrived (as JSON.parse orders them); each one it lacks arrived
 * and was not held: the word in its place (its name stays where it was), named as not held. The `more`
 * keys past those named: those it holds are put last, the others only counted as not held.
 */
function inBodyOrder(object: Record<string, unknown>, names: readonly string[], more: number): void {
  const held = new Map(Object.entries(object));
  for (const name of held.keys()) Reflect.deleteProperty(object, name);
  for (const name of new Set(names)) {
    if (held.has(name)) setOwnField(object, name, held.get(name));
    else {
      setOwnField(object, name, TOO_LARGE_TO_KEEP);
      markFieldNotHeld(object, name, true);
    }
  }
  let heldPast = 0;
  for (const [name, value] of held) {
    if (Object.hasOwn(object, name)) continue;
    setOwnField(object, name, value);
    heldPast++;
  }
  countFieldsNotHeld(object, more - heldPast);
}

/** The object at `keys` in `body`, made where absent; undefined when something else is there. */
function objectAt(body: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  let holder = body;
  for (const key of keys) {
    if (!Object.hasOwn(holder, key)) setOwnField(holder, key, {});
    const next = holder[key];
    if (!isJsonObject(next)) return undefined;
    holder = next;
  }
  return holder;
}
