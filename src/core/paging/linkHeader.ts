// The rel="next" target of an RFC 8288 Link header (the generic style follows it; detection looks for it).
// Read link by link, as the grammar writes them: `<target>` and its `; name=value` parameters, a value a
// token or a quoted string, which may hold `,` `;` `<` and `\"` (`title="page 2, of 3"`): a pattern that
// stops a link's parameters at the first comma loses such a link's rel. `rel` is a space-separated list of
// relation types, compared without case; the first rel of a link counts (RFC 8288 §3.3).
export function linkHeaderNext(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let at = 0;
  const skipSpace = (): void => {
    while (at < value.length && (value[at] === ' ' || value[at] === '\t')) at++;
  };
  while (at < value.length) {
    const open = value.indexOf('<', at);
    if (open < 0) return undefined;
    const close = value.indexOf('>', open + 1);
    if (close < 0) return undefined;
    const target = value.slice(open + 1, close);
    at = close + 1;
    let rel: string | undefined;
    for (skipSpace(); value[at] === ';'; skipSpace()) {
      at++;
      skipSpace();
      const name = /^[^=;,\s]*/.exec(value.slice(at))![0];
      at += name.length;
      skipSpace();
      let param = '';
      if (value[at] === '=') {
        at++;
        skipSpace();
        [param, at] = value[at] === '"' ? quoted(value, at + 1) : token(value, at);
      }
      if (name.toLowerCase() === 'rel' && rel === undefined) rel = param;
    }
    if (rel !== undefined && rel.toLowerCase().split(/\s+/).includes('next')) return target;
    // Past this link: to the comma that ends it (anything unreadable before it is skipped).
    const comma = value.indexOf(',', at);
    if (comma < 0) return undefined;
    at = comma + 1;
  }
  return undefined;
}

/** A quoted string's text from `from` (just past its opening quote), and where it ends (past its closing quote). */
function quoted(value: string, from: number): [string, number] {
  let text = '';
  let at = from;
  for (; at < value.length && value[at] !== '"'; at++) text += value[at] === '\\' && at + 1 < value.length ? value[++at] : value[at];
  return [text, at + 1];
}

/** A token's text from `from`, up to the `;` or `,` that ends it, and where it ends. */
function token(value: string, from: number): [string, number] {
  const end = /[;,]/.exec(value.slice(from));
  const to = end ? from + end.index : value.length;
  return [value.slice(from, to).trim(), to];
}
