// The exchange's words for its walk: when a walk fails its exchange, when it can go on, why it cannot,
// and the sink that only counts. Shared by the exchange and its continuations (pagedWalk.ts).
import type { RowSink } from '../export/sink';
import type { WalkResult } from '../paging/walker';

/**
 * THE rule for when a walk fails its exchange: every page asked for ('all') must be complete; a first page
 * ('first') fails when the request is paged and the walk ended otherwise than at its end or at its one
 * page. Not for a first page: an unpaged response (shown as it came, whatever its body, but not one whose
 * body never came whole, nor one without the rows its items= names, nor a JSON body the JSON grammar
 * refuses), nor a refused status (a 4xx/5xx is the response's own failure, which `?? status == N` may expect).
 * `contentType`: the response's Content-Type.
 */
export function walkProblemOf(walked: WalkResult, pages: 'first' | 'all', contentType?: string): string | undefined {
  if (walked.verdict === 'complete') return undefined;
  if (pages === 'all') return walked.message;
  const paged = walked.checkpoint.plan.style !== 'none';
  if (paged) return walked.outcome !== 'max-pages' && walked.failure?.kind !== 'http' ? walked.message : undefined;
  // An unpaged response is shown as it came, whatever its body; but one whose body never came whole (cut,
  // too slow, stopped), whose rows could not be written or taken as given ('rows'), or whose body the JSON
  // grammar refused ('paging': broken, cut, ended early, bytes after its end), whether or not rows of it
  // came before the fault, has no result to show; nor one whose rows items= names (the user said where
  // they are) and that has none there, or none it can give. A body that says it is another type than JSON
  // (text/html, text/plain) is shown as it came: only JSON is read for rows (arrivedRows: some were).
  if (walked.failure?.kind === 'paging' && (walked.arrivedRows !== undefined || readAsJson(contentType))) return walked.message;
  const named = walked.checkpoint.plan.options['items'] !== undefined;
  return walked.failure?.kind === 'http' || (walked.failure?.kind === 'paging' && !named) ? undefined : walked.message;
}

/** A body read as JSON: one that says it is (application/json, any +json type), or says nothing. */
function readAsJson(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** The bar's words for a walk that cannot go on although it did not reach its end (inconsistent, or a lost page). */
export function stoppedWords(walked: WalkResult): string | undefined {
  if (walked.verdict === 'inconsistent') return `inconsistent: ${walked.failure?.message ?? walked.checkpoint.endReason ?? 'the server\'s paging contradicted itself'}`;
  if (walked.verdict === 'failed' && walked.cannotResume) return `failed: ${walked.failure?.message ?? ''}; cannot resume`;
  return undefined;
}

/** The walk can go on: not at its end, a next request known, and the server's paging not self-contradicting. */
export function canContinue(walked: WalkResult): boolean {
  return !walked.checkpoint.done && walked.checkpoint.next !== undefined && walked.verdict !== 'inconsistent' && walked.cannotResume === undefined;
}

/** No sink given: the rows are counted by the walk and dropped; streamed pages stay streamed (flat memory). */
export const DISCARD: RowSink = {
  format: 'memory', countsOnly: true, writePage: () => Promise.resolve(), writeNdjsonPage: () => Promise.resolve(), checkpoint: () => undefined, close: () => Promise.resolve(),
};
