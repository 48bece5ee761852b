// `apiwb run`'s resume rules: where a --resume run starts (the checkpoint beside --out, found again in this
// run's plan, refused unless it is the walk's own), the one record kept beside --out while the run goes,
// and the words that say how a walk that is not complete continues. The record's file: ./resumeFile.ts.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { WalkCheckpoint } from '../core/paging/checkpoint';
import type { WalkResult } from '../core/paging/walker';
import { fileFaultWords } from '../core/files/outputs';
import { shellQuote } from '../core/interop/shellQuote';
import { InputError } from './nodePorts/files';
import type { OutputFormat } from './reporters/outputSink';
import { readResumeRecord, removeResumeRecord, resumeKey, resumePathFor, resumeRecordRefusal, writeResumeRecord, type CompletedRequest, type ResumeRecord } from './resumeFile';
import type { RunOptions } from './runArguments';
import type { PlannedRequest } from './runPlan';
import { faultText } from '../core/text/faultText';
import type { UserKey } from '../core/files/userKey';

/** The request a --resume run continues (its index in the plan) and the record it continues from. */
export interface ResumePoint {
  readonly index: number;
  readonly record: ResumeRecord;
}

/** Where a --resume run starts: the request of the checkpoint beside --out, found again in this run's plan. */
export function resumePoint(out: string, format: OutputFormat, planned: readonly PlannedRequest[]): ResumePoint {
  let record: ResumeRecord;
  try {
    record = readResumeRecord(out, resumeKey());
  } catch (error) {
    throw new InputError(faultText(error));
  }
  const index = planned.findIndex((p) => resolvePath(p.file) === record.file && p.node.index === record.requestIndex);
  if (index < 0) throw new InputError(`--resume: the checkpoint beside ${out} is for ${record.where}, which this run does not include; give the same files and --name as the run that was cut short`);
  const unproved = unprovedBy(record, planned, index);
  if (unproved) throw new InputError(`--resume: the checkpoint beside ${out} is not taken: ${unproved}. Nothing was sent; run again without --resume to start the walk over`);
  if (!record.checkpoint.sink) throw new InputError(`--resume: the checkpoint beside ${out} does not say how much of the file is kept`);
  // Taken only for the file it was written beside, at a row's end, after the row it saw last; a finished walk is not resumed.
  const refusal = resumeRecordRefusal(record, out) ?? (record.checkpoint.done || !record.checkpoint.next ? 'it says the walk was finished: a finished walk is not resumed' : undefined);
  if (refusal) throw new InputError(`--resume: the checkpoint beside ${out} is not taken: ${refusal}. Nothing was sent; run again without --resume to start the walk over`);
  if (record.checkpoint.sink.format !== format) throw new InputError(`--resume: ${out} was written as ${record.checkpoint.sink.format}, not ${format}; give the same --format`);
  return { index, record };
}

/** The requests a --resume run skips, as the record says the run it continues finished them (checked: resumePoint). */
export function finishedBefore(resume: ResumePoint | undefined): CompletedRequest[] {
  return resume ? (resume.record.completed ?? []).slice(0, resume.index) : [];
}

/** A hash of a request's block as written (directives, request line, headers, body): what it sends, as far as the file says. */
export function requestFingerprint(item: Pick<PlannedRequest, 'parsed' | 'block'>): string {
  const hash = createHash('sha256');
  for (let line = item.block.firstLine; line <= item.block.lastLine; line++) hash.update(`${item.parsed.lines[line]?.text ?? ''}\n`);
  return hash.digest('base64');
}

/** A request of the run as finished, for the records of the walks after it. */
export function completedRequest(item: PlannedRequest, outcome: { readonly ok: boolean; readonly walk?: WalkResult | undefined }): CompletedRequest {
  return { file: resolvePath(item.file), where: item.where, requestIndex: item.node.index, fingerprint: requestFingerprint(item), rows: outcome.walk?.checkpoint.rows ?? 0, ok: outcome.ok };
}

/** The record of walk `item` at `checkpoint`, naming the requests of the run finished before it (`completed`, in order). */
export function walkRecord(item: PlannedRequest, checkpoint: WalkCheckpoint, completed: readonly CompletedRequest[]): ResumeRecord {
  return { version: 1, file: resolvePath(item.file), where: item.where, requestIndex: item.node.index, checkpoint, fingerprint: requestFingerprint(item), completed };
}

/**
 * Why the record does not prove what a --resume would obey, or undefined. The record is obeyed only as far
 * as the run that wrote it: its walk is the request at its place now (file:line and block as written), and
 * every request of this run before it is one the record says that run finished, in order, written as it was then.
 */
function unprovedBy(record: ResumeRecord, planned: readonly PlannedRequest[], index: number): string | undefined {
  const walked = planned[index]!;
  if (record.where !== walked.where) return `it names ${record.where}, but request ${record.requestIndex + 1} of ${walked.shown} is at ${walked.where} now`;
  if (record.fingerprint !== requestFingerprint(walked)) return `${walked.where} is not written as it was when the walk was cut short`;
  const completed = record.completed ?? [];
  if (completed.length !== index) return `this run has ${index} request${index === 1 ? '' : 's'} before ${walked.where}, but it says the run it continues finished ${completed.length}`;
  for (const [j, done] of completed.entries()) {
    const item = planned[j]!;
    if (done.file !== resolvePath(item.file) || done.requestIndex !== item.node.index || done.where !== item.where) return `it says ${done.where} was finished before the walk, but this run has ${item.where} there`;
    if (done.fingerprint !== requestFingerprint(item)) return `${item.where} is not written as it was when it was finished`;
  }
  return undefined;
}

/**
 * The one resume record beside --out. Every page of a walk rewrites it, until a walk of the run ends not
 * complete: that walk's record (or its absence, when it cannot be resumed) is held, and nothing later in the
 * run writes or removes it. A --resume then starts at that walk, cutting --out back to its last page, and
 * runs every request after it again; a later walk can never point --resume past it.
 * The record belongs to the file beside it: while --out holds nothing of this run (`ownsOut` false: the
 * file there is put back at the end), the record there is the one of that file, left as it is — a run
 * failing before its first row leaves yesterday's walk resumable.
 */
export interface ResumeRecordKeeper {
  /** After each page kept (ignored once held). */
  page(record: ResumeRecord): void;
  /** A walk that is not complete: its record, or undefined when it cannot be resumed (ignored once held). */
  ended(record: ResumeRecord | undefined): void;
  /** From now on the record stays as it is. */
  hold(): void;
  /** End of the run: without a held record, every walk was complete and none is left. */
  finish(): void;
  /** --out holds rows of this run (its record is this run's to write). */
  ownsOut(): boolean;
  /** Why no record of this user's can be signed or taken (apiwb has no key of this user's), or undefined. */
  keyless(): string | undefined;
}

export function resumeRecordOf(out: string | undefined, ownsOut: () => boolean, warn: (text: string) => void): ResumeRecordKeeper {
  let held = false;
  // A record that cannot be written (the disk is full) leaves the one before it, which still resumes:
  // the walk goes on, and the reason is said once.
  let said = false;
  // This user's key, looked up at its first need: without one a record is written unsigned, and said once.
  let key: UserKey | undefined;
  const userKeyNow = (): UserKey => (key ??= resumeKey());
  let saidUnsigned = false;
  const write = (record: ResumeRecord): void => {
    const signing = userKeyNow();
    if (!signing.ok && !saidUnsigned) {
      saidUnsigned = true;
      warn(`apiwb run: the checkpoint beside ${out} is not signed: apiwb has no signing key of this user's (${signing.reason}), so a --resume will not take it; the rows written to ${out} stand`);
    }
    try {
      writeResumeRecord(out!, record, signing);
    } catch (error) {
      if (!said) warn(`apiwb run: the checkpoint beside ${out} could not be written (${fileFaultWords(error, resumePathFor(out!))}); a --resume goes on from the last one written`);
      said = true;
    }
  };
  return {
    page: (record) => { if (out && !held && ownsOut()) write(record); },
    ended: (record) => {
      if (!out || held || !ownsOut()) return;
      if (record) write(record);
      else removeResumeRecord(out);
    },
    hold: () => { held = true; },
    finish: () => { if (out && !held && ownsOut()) removeResumeRecord(out); },
    ownsOut,
    keyless: () => {
      const signing = userKeyNow();
      return signing.ok ? undefined : signing.reason;
    },
  };
}

/**
 * What continues a walk that is not complete: the exact command, or why it cannot. `ownsOut`: --out holds
 * rows of this run; else the file there and its record are left as they were (resumeRecordOf). `keyless`:
 * why apiwb has no signing key of this user's (ResumeRecordKeeper.keyless); then no checkpoint is taken,
 * so no --resume is offered: the walk is run again from its start.
 */
export function resumeWords(walk: WalkResult, options: RunOptions, ownsOut: boolean, keyless: string | undefined): string {
  if (walk.resumeAt !== undefined) {
    const noKey = (use: string): string => `apiwb has no signing key of this user's to ${use} a checkpoint with (${keyless})`;
    if (!options.out) return keyless === undefined ? ` To keep the rows and resume, run again with --out FILE.` : ` It cannot be resumed: ${noKey('sign')}; run again to start the walk over.`;
    const command = `apiwb run ${options.argv.filter((a) => a !== '--resume').map(shellQuote).join(' ')}`;
    if (!ownsOut) {
      if (!existsSync(resumePathFor(options.out))) return ` Nothing was written to ${options.out}; to start the walk over: ${command}`;
      return keyless === undefined
        ? ` Nothing was written: ${options.out} and the checkpoint beside it are left as they were; to continue the walk they hold: ${command} --resume`
        : ` Nothing was written: ${options.out} and the checkpoint beside it are left as they were, but it cannot be resumed: ${noKey('check')}; to start the walk over: ${command}`;
    }
    return keyless === undefined
      ? ` To continue from page ${walk.resumeAt}, appending to ${options.out}: ${command} --resume`
      : ` The rows written to ${options.out} stand, but it cannot be resumed: ${noKey('sign')}; to start the walk over: ${command}`;
  }
  return walk.cannotResume ? ` It cannot be resumed: ${walk.cannotResume}.` : '';
}
