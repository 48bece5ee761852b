// `apiwb run`'s overlap rules: what of request i+1 may happen while response i is on the network or
// examined (its making ready, its send), and never what i+1 depends on. One request on the wire at a
// time; the send order itself is src/cli/sendOrder.ts.
import type { PlannedRequest } from './runPlan';
import type { RunOptions } from './runArguments';

/** Responses up to this size are examined (rows counted, business errors) in well under a millisecond. */
const OVERLAPPED_BODY_BYTES = 64 * 1024;

/**
 * THE rule for whether request i+1 goes while response i (of `bytes`) is still examined. Only where
 * nothing i+1 does depends on that examination, and the examination is short enough to go unnoticed in
 * i+1's time (which it shares: one event loop): not with --out or --all-pages (rows are written in
 * request order), not when a later request or a file variable reads response i by name, not when
 * response i has steps (assertions, --check-contract: they read the whole body) or is large, and not
 * when request i+1 asserts its own duration.
 */
export function overlapsNext(planned: readonly Pick<PlannedRequest, 'readLater' | 'node'>[], i: number, bytes: number, options: Pick<RunOptions, 'allPages' | 'out' | 'checkContract'>): boolean {
  const item = planned[i];
  const next = planned[i + 1];
  if (!item || !next || options.allPages || options.out !== undefined || options.checkContract) return false;
  if (item.readLater || item.node.assertions.length > 0 || bytes > OVERLAPPED_BODY_BYTES) return false;
  return !next.node.assertions.some((a) => a.subject === 'duration');
}

/**
 * THE rule for whether request i+1 is made ready (its variables, $auth values, `< file` body) while
 * request i is on the network, to go the moment response i is in: only when nothing of that can depend
 * on response i (no later request nor file variable reads it by name), not when request i asserts its
 * duration (making the next one ready meanwhile could delay reading response i), and not with
 * --all-pages (a walk of many pages leaves its next request the time to be made ready). Nor, in a run,
 * while responses take longer than READY_AHEAD_FOR_MS. A sign-in it needs still waits for response i
 * (SendOrder.idle): one request of the run on the network at a time.
 */
export function preparesAhead(planned: readonly Pick<PlannedRequest, 'readLater' | 'node'>[], i: number, options: Pick<RunOptions, 'allPages'>): boolean {
  const item = planned[i];
  if (!item || planned[i + 1] === undefined || options.allPages || item.readLater) return false;
  return !item.node.assertions.some((a) => a.subject === 'duration');
}

/**
 * A request made ready ahead goes as it was made ready only when its making ready began at most this long
 * before the request does (else it is made ready again then): its time-based values ({{$timestamp}},
 * {{$isoTimestamp}}) are that fresh. About a local server's answer; a run answered more slowly makes no
 * request ready ahead.
 */
export const READY_AHEAD_FOR_MS = 100;
