// Test helpers for the --out aside (fileSink.ts): the hidden copies of an old --out beside it, and the
// moment a run has moved the old file aside and written its first rows. Not a test (no .test.ts suffix).
import { existsSync, readdirSync, statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** The hidden names an old `out` waits under while a run writes a new one. */
export const asidesOf = (out: string): string[] => readdirSync(dirname(out)).filter((n) => n.startsWith(`.${basename(out)}.apiwb-before-`));

/** Resolves once the old `out` is aside and rows are in `out` (fails after 30 s). */
export function asideAndRows(out: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => { w.close(); reject(new Error(`no row reached ${out}`)); }, 30_000);
    const check = (): void => {
      if (asidesOf(out).length > 0 && existsSync(out) && statSync(out).size > 0) { clearTimeout(timer); w.close(); resolve(); }
    };
    const w = watch(dirname(out), check);
    check();
  });
}
