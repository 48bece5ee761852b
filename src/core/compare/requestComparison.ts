// One request compared on two sides: what each side came back with (status, business verdict and
// error codes, walk verdict, rows, contract drift) and what differs between them, in words, plus the
// record comparison of their rows. The sides agree when nothing but ignored paths
// differs, and never when neither side answered (nothing was compared: a failure, as in apiwb run)
// nor when a side's walk is not complete (its records past the failure were never seen: as in apiwb
// run, only complete is success; two sides failing alike are not alike data); the summary line always
// names the four counts.
import type { RecordComparison } from './partitioned';
import { shapeDiffers } from './shape';
import { scalarText } from '../text/scalarText';

/** What one side of a request came back with; JSON-serialisable (a baseline keeps it). */
export interface SideSummary {
  readonly status?: number;
  /** Why there is no usable response (a lost connection, a sign-in failure), in words, redacted. */
  readonly problem?: string;
  readonly business: 'ok' | 'failed';
  /** The business failures' codes (or their words when a failure has no code). */
  readonly errorCodes: readonly string[];
  /** An all-pages walk's verdict; absent for a single response. */
  readonly walk?: 'complete' | 'cut-short' | 'inconsistent' | 'failed';
  readonly rows?: number;
  /** Contract drift found on this side, in words (path, what, section). */
  readonly drift: readonly string[];
}

export interface RequestComparison {
  readonly label: string;
  readonly a: SideSummary;
  readonly b: SideSummary;
  /** Absent when a side has no rows to compare (no response). */
  readonly records?: RecordComparison;
  /** Every difference other than records, in words. */
  readonly differences: readonly string[];
  readonly differs: boolean;
}

export function compareRequest(label: string, a: SideSummary, b: SideSummary, records: RecordComparison | undefined): RequestComparison {
  const differences = [...sideDifferences(a, b), ...(records ? shapeWords(records) : [])];
  const recordsDiffer = records !== undefined && records.added + records.removed + records.changed > 0;
  return { label, a, b, ...(records ? { records } : {}), differences, differs: recordsDiffer || differences.length > 0 };
}

/** `added N, removed N, changed N, unchanged N`. */
export function countsLine(records: Pick<RecordComparison, 'added' | 'removed' | 'changed' | 'unchanged'> | undefined): string {
  const r = records ?? { added: 0, removed: 0, changed: 0, unchanged: 0 };
  return `added ${r.added}, removed ${r.removed}, changed ${r.changed}, unchanged ${r.unchanged}`;
}

export function sideDifferences(a: SideSummary, b: SideSummary): string[] {
  const out: string[] = [];
  const said = (value: unknown): string => (value === undefined ? 'none' : scalarText(value));
  if (a.status !== b.status) out.push(`status ${said(a.status)} → ${said(b.status)}`);
  if ((a.problem === undefined) !== (b.problem === undefined)) out.push(a.problem ? `side A failed: ${a.problem}` : `side B failed: ${b.problem ?? ''}`);
  else if (a.problem !== undefined && a.status === undefined && b.status === undefined) out.push('neither side answered: nothing was compared');
  if (a.business !== b.business) out.push(`business verdict ${a.business} → ${b.business}`);
  const newCodes = b.errorCodes.filter((c) => !a.errorCodes.includes(c));
  const goneCodes = a.errorCodes.filter((c) => !b.errorCodes.includes(c));
  if (newCodes.length) out.push(`new error codes on side B: ${newCodes.join(', ')}`);
  if (goneCodes.length) out.push(`error codes on side A only: ${goneCodes.join(', ')}`);
  if (a.walk !== b.walk) out.push(`walk verdict ${said(a.walk)} → ${said(b.walk)}`);
  else if (a.walk !== undefined && a.walk !== 'complete') out.push(`walk ${a.walk} on both sides: records past it were not compared`);
  const driftA = a.drift.filter((d) => !b.drift.includes(d));
  const driftB = b.drift.filter((d) => !a.drift.includes(d));
  for (const d of driftA) out.push(`contract drift on side A only: ${d}`);
  for (const d of driftB) out.push(`contract drift on side B only: ${d}`);
  return out;
}

function shapeWords(records: RecordComparison): string[] {
  if (!shapeDiffers(records.shape)) return [];
  const { onlyA, onlyB, typeChanges } = records.shape;
  return [
    ...(onlyA.length ? [`fields on side A only: ${onlyA.join(', ')}`] : []),
    ...(onlyB.length ? [`fields on side B only: ${onlyB.join(', ')}`] : []),
    ...typeChanges.map((t) => `type of ${t.path}: ${t.a.join('|')} → ${t.b.join('|')}`),
  ];
}
