// The skeletons the rows rule (rows.ts) is asked of for the lanes of an object body (laneRows.ts): after
// each chunk, the lanes kept and those just closed, alone (skeletonOf, of standIns: the first and last of
// lanes the rule cannot tell apart); at the end, each lane remembered set in its place of the body's
// skeleton (innerArray, for arrays two levels down or at an items= path).
import { ownField, setOwnField } from '../json/ownField';
import type { Lane } from './lane';
import { indexKey } from './laneDoubts';
import { forgetFieldNotHeld, markNotHeld } from './notHeld';
import { isJsonObject } from '../json/numberText';
import { ROWS_SAMPLE } from './rows';

/**
 * The array at `keys` (two or more: `outer.inner`, or an items= path) of the skeleton: the objects on the
 * way made where they were not kept (too large), as the rule reads it. A kept object holds each of its
 * arrays (their content elided): when the one holding the last key lacks it, that array was in an earlier
 * copy of the object the body gave again, which JSON.parse does not keep either (undefined); so is a
 * value not an array in its place (the later copy's). `marks`: the objects made are marked not held (an
 * object's arrays two levels down, past the budget not summarised); never for an items= path, whose first
 * object, too large to keep, pathParts.ts rebuilds as it finds it among the fields not held.
 */
export function innerArray(skeleton: Record<string, unknown>, keys: readonly string[], trusted: boolean, marks: boolean): unknown[] | undefined {
  let holder: unknown = skeleton;
  let kept = true;
  // By index, not a slice of the keys: asked once for each lane remembered.
  for (let k = 0; k < keys.length - 1; k++) {
    const key = keys[k]!;
    const outer = holder as Record<string, unknown>;
    kept = Object.hasOwn(outer, key);
    holder = kept ? outer[key] : undefined;
    // A kept lane not void is in the object's last copy: where that copy was not held (past the budget,
    // or a word stands for it), the objects on its way are made, marked not held, as a summary was.
    if (!kept || (trusted && !isJsonObject(holder))) {
      holder = marks ? markNotHeld({}) : {};
      setOwnField(outer, key, holder);
      if (marks && outer === skeleton) forgetFieldNotHeld(outer, key);
      kept = false;
    }
    if (!isJsonObject(holder)) return undefined;
  }
  const inner = keys[keys.length - 1]!;
  const last = holder as Record<string, unknown>;
  if (!kept || (trusted && !Array.isArray(ownField(last, inner)))) setOwnField(last, inner, []);
  // A kept object without the array, or with something else there (a number, null, an object): the body
  // gave the object again and JSON.parse keeps the later copy, so this lane is not in it.
  const found = ownField(last, inner);
  return Array.isArray(found) ? found : undefined;
}


/**
 * The lanes the rule is asked of: of those it cannot tell apart, the first and the last. Two lanes look
 * the same to it when their placeholders are equal (count, sample and its objects) at one depth, under
 * keys no other lane here shares (a key given twice, at the top or under one outer key, changes which
 * one it sees, and where: those lanes are all asked).
 */
export function standIns(lanes: readonly Lane[]): readonly Lane[] {
  if (lanes.length <= 2) return lanes;
  // Per outer key: its depth and inner keys (a set only once it holds two: most outer keys hold one lane).
  const outers = new Map<string, { depth: number; path: string; paths: Set<string> | undefined }>();
  const shared = new Set<string>();
  let lastOuter: string | undefined;
  for (const lane of lanes) {
    const outer = lane.keys[0]!;
    const seen = outers.get(outer);
    const path = lane.keys.length === 1 ? '' : lane.keys[1]!;
    if (!seen) outers.set(outer, { depth: lane.keys.length, path, paths: undefined });
    else if (seen.depth !== lane.keys.length || lane.keys.length === 1 || lastOuter !== outer || seen.path === path || seen.paths?.has(path)) shared.add(outer);
    else (seen.paths ??= new Set([seen.path])).add(path);
    lastOuter = outer;
  }
  // An array-index key ("7") goes before every other key of its object (Object.keys order, the rule's
  // order): such a lane is always asked, never stood in for.
  for (const lane of lanes) if (lane.keys.some(indexKey)) shared.add(lane.keys[0]!);
  const classes = new Map<number, { first: Lane; last: Lane }>();
  for (const lane of lanes) {
    if (shared.has(lane.keys[0]!)) continue;
    // One number per weight (sampled and objects are at most ROWS_SAMPLE, the depth 1 or 2): exact below 2^53.
    const weight = ((lane.count * (ROWS_SAMPLE + 1) + lane.sampled) * (ROWS_SAMPLE + 1) + lane.objects) * 3 + lane.keys.length;
    const same = classes.get(weight);
    if (same) same.last = lane;
    else classes.set(weight, { first: lane, last: lane });
  }
  const asked = new Set<Lane>();
  for (const { first, last } of classes.values()) asked.add(first).add(last);
  return lanes.filter((lane) => shared.has(lane.keys[0]!) || asked.has(lane));
}

/** The lanes as the rule would see them alone, in body order; which of them it can see (a key given twice hides one). */
export function skeletonOf(lanes: readonly Lane[]): { body: Record<string, unknown>; reachable: Set<Lane> } {
  const body: Record<string, unknown> = {};
  for (const lane of lanes) {
    // Each object on the way made anew where the body so far holds none (an array the key held before goes).
    let holder = body;
    for (const key of lane.keys.slice(0, -1)) {
      const own = ownField(holder, key);
      const next = isJsonObject(own) ? own : {};
      setOwnField(holder, key, next);
      holder = next;
    }
    setOwnField(holder, lane.keys[lane.keys.length - 1]!, lane.placeholder());
  }
  const reachable = new Set<Lane>();
  for (const lane of lanes) {
    let at: unknown = body;
    for (const key of lane.keys) at = isJsonObject(at) ? ownField(at, key) : undefined;
    if (at === lane.items) reachable.add(lane);
  }
  return { body, reachable };
}
