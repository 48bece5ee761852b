// The text of a value as `String(value)` gives it, written out per type so no object slips through to
// Object's default '[object Object]' unseen: objects and arrays (and anything else) keep that exact text.

/** `String(value)`, with each kind of value handled on purpose. */
export function scalarText(value: unknown): string {
  switch (typeof value) {
    case 'string': return value;
    case 'number': case 'boolean': case 'bigint': return String(value);
    case 'symbol': return value.toString();
    case 'function': return Function.prototype.toString.call(value);
    case 'object': return value === null ? 'null' : objectText(value);
    default: return 'undefined';
  }
}

/** What `String(object)` gives: its own toString when it has one (Date, Error, URL), else '[object Object]'. */
function objectText(value: object): string {
  if (Array.isArray(value)) return value.map((item: unknown) => (item === null || item === undefined ? '' : scalarText(item))).join(',');
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the default text is the behaviour kept here
  return String(value);
}
