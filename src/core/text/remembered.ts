// The one bounded memo of the core: a pure function's answers for the keys it is asked again and again
// (a run prints, matches and parses the same few URLs and keys for every request or row).

/**
 * `cache`'s answer for `key`, computed once; the cache is emptied when it reaches `limit` (it stays
 * bounded). `compute` must be a pure function of `key`, made once (not a closure per call: keys are asked
 * by the million). An answer of `undefined` is computed again each time; a `compute` that throws remembers nothing.
 */
export function remembered<T>(cache: Map<string, T>, key: string, limit: number, compute: (key: string) => T): T {
  let answer = cache.get(key);
  if (answer === undefined) {
    answer = compute(key);
    if (cache.size >= limit) cache.clear();
    cache.set(key, answer);
  }
  return answer;
}
