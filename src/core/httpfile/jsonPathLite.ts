// The JSONPath subset request chaining needs: `$`, `.name`, `['name']`, `[index]`. Anything more
// (filters, wildcards, recursion) is reported as unsupported rather than guessed.

export type JsonPathResult = { readonly found: true; readonly value: unknown } | { readonly found: false; readonly reason: 'unsupported' | 'not-found' };

export function parseJsonPath(path: string): Array<string | number> | undefined {
  const steps: Array<string | number> = [];
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  while (rest.length > 0) {
    let m: RegExpExecArray | null;
    if ((m = /^\.([^.[\]]+)/.exec(rest))) steps.push(m[1] ?? '');
    else if ((m = /^\[(\d+)\]/.exec(rest))) steps.push(Number(m[1]));
    else if ((m = /^\[\s*'([^']*)'\s*\]/.exec(rest)) || (m = /^\[\s*"([^"]*)"\s*\]/.exec(rest))) steps.push(m[1] ?? '');
    else if (steps.length === 0 && (m = /^([^.[\]]+)/.exec(rest))) steps.push(m[1] ?? '');
    else return undefined;
    if (steps.at(-1) === '*') return undefined;
    rest = rest.slice(m[0].length);
  }
  return steps;
}

export function evaluateJsonPath(root: unknown, path: string): JsonPathResult {
  const steps = parseJsonPath(path);
  if (!steps) return { found: false, reason: 'unsupported' };
  let current: unknown = root;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current) || step >= current.length) return { found: false, reason: 'not-found' };
      current = current[step] as unknown;
    } else {
      if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, step)) {
        return { found: false, reason: 'not-found' };
      }
      current = (current as Record<string, unknown>)[step];
    }
  }
  return { found: true, value: current };
}
