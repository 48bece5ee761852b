// THE way a body's field is set on an object the product builds in place of JSON.parse's (a skeleton,
// a placeholder's holder, a copy): as JSON.parse sets it, an own, enumerable, writable field. Assigned,
// which is the same on a plain object for every key but "__proto__" (an accessor of Object.prototype:
// assigning it sets the prototype), which only a definition makes an own field. Assigned, not defined,
// for the rest: a definition costs a descriptor each (a body of 200 000 small arrays has as many keys).

/** Sets `target[key] = value` as an own field, as JSON.parse would (a key "__proto__" too). */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * `target[key]` as JSON.parse's object answers it for a body's key: its own field, else undefined (never
 * a member of Object.prototype: a key "constructor", "toString" or "__proto__" the body did not give).
 */
export function ownField(target: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}
