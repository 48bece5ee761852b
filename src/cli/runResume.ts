// `apiwb run`'s resume rules: where a --resume run starts (the checkpoint beside --out, found again in this
// run's plan, refused unless it is the walk's own), the one record kept beside --out while the run goes,
// and the words that say how a walk that is not complete continues. The record's file: ./resumeFile.ts.
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { WalkResult } from '../core/paging/walker';
import { fileFaultWords } from '../core/files/outputs';
import { shellQuote } from '../core/interop/shellQuote';
import { InputError } from './nodePorts/files';
import type { OutputFormat } from './reporters/outputSink';
import { readResumeRecord, removeResumeRecord, resumePathFor, resumeRecordRefusal, writeResumeRecord, type ResumeRecord } from './resumeFile';
import type { RunOptions } from './runArguments';
import type { PlannedRequest } from './runPlan';
import { faultText } from '../core/text/faultText';

/** The request a --resume run continues (its index in the plan) and the record it continues from. */
export interface ResumePoint {
  readonly index: number;
  readonly record: ResumeRecord;
}

/** Where a --resume run starts: the request of the checkpoint beside --out, found again in this run's plan. */
export function resumePoint(out: string, format: OutputFormat, planned: readonly PlannedRequest[]): ResumePoint {
  let record: ResumeRecord;
  try {
    record = readResumeRecord(out);
  } catch (error) {
    throw new InputError(faultText(error));
  }
  const index = planned.findIndex((p) => resolvePath(p.file) === record.file && p.node.index === record.requestIndex);
  if (index < 0) throw new InputError(`--resume: the checkpoint beside ${out} is for ${record.where}, which this run does not include; give the same files and --name as the run that was cut short`);
  if (!record.checkpoint.sink) throw new InputError(`--resume: the checkpoint beside ${out} does not say how much of the file is kept`);
  // Taken only for the file it was written beside, at a row's end, after the row it saw last; a finished walk is not resumed.
  const refusal = resumeRecordRefusal(record, out) ?? (record.checkpoint.done || !record.checkpoint.next ? 'it says the walk was finished: a finished walk is not resumed' : undefined);
  if (refusal) throw new InputError(`--resume: the checkpoint beside ${out} is not taken: ${refusal}. Nothing was sent; run again without --resume to start the walk over`);
  if (record.checkpoint.sink.format !== format) throw new InputError(`--resume: ${out} was written as ${record.checkpoint.sink.format}, not ${format}; give the same --format`);
  return { index, record };
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
}

export function resumeRecordOf(out: string | undefined, ownsOut: () => boolean, warn: (text: string) => void): ResumeRecordKeeper {
  let held = false;
  // A record that cannot be written (the disk is full) leaves the one before it, which still resumes:
  // the walk goes on, and the reason is said once.
  let said = false;
  const write = (record: ResumeRecord): void => {
    try {
      writeResumeRecord(out!, record);
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
  };
}

/**
 * What continues a walk that is not complete: the exact command, or why it cannot. `ownsOut`: --out holds
 * rows of this run; else the file there and its record are left as they were (resumeRecordOf).
 */
export function resumeWords(walk: WalkResult, options: RunOptions, ownsOut: boolean): string {
  if (walk.resumeAt !== undefined) {
    if (!options.out) return ` To keep the rows and resume, run again with --out FILE.`;
    const command = `apiwb run ${options.argv.filter((a) => a !== '--resume').map(shellQuote).join(' ')}`;
    if (!ownsOut) {
      return existsSync(resumePathFor(options.out))
        ? ` Nothing was written: ${options.out} and the checkpoint beside it are left as they were; to continue the walk they hold: ${command} --resume`
        : ` Nothing was written to ${options.out}; to start the walk over: ${command}`;
    }
    return ` To continue from page ${walk.resumeAt}, appending to ${options.out}: ${command} --resume`;
  }
  return walk.cannotResume ? ` It cannot be resumed: ${walk.cannotResume}.` : '';
}
