// `apiwb run … --all-pages --out F`: the walk's checkpoint lives beside F, in F.apiwb-resume.json, rewritten
// after every page kept. It holds no secret (the walker's checkpoint drops credential headers, URL user
// info and secret query values; request and page fingerprints are hashes) — the resumed run prepares
// the request again from the environment. `--resume` reopens F at the checkpoint's length (a torn page is
// cut off), continues the walk and appends; a complete run removes the file.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { parseCheckpoint, type WalkCheckpoint } from '../core/paging/checkpoint';

export interface ResumeRecord {
  readonly version: 1;
  /** The .http file (absolute path) and the request's index in it; `where` is its `file:line` as printed. */
  readonly file: string;
  readonly where: string;
  readonly requestIndex: number;
  readonly checkpoint: WalkCheckpoint;
}

export function resumePathFor(out: string): string {
  return `${out}.apiwb-resume.json`;
}

/** Written atomically (temp file + rename), so a crash mid-write leaves the previous checkpoint. */
export function writeResumeRecord(out: string, record: ResumeRecord): void {
  const path = resumePathFor(out);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

export function removeResumeRecord(out: string): void {
  rmSync(resumePathFor(out), { force: true });
}

/** The record beside `out`, or why there is none to resume from (thrown, in words). */
export function readResumeRecord(out: string): ResumeRecord {
  const path = resumePathFor(out);
  if (!existsSync(path)) throw new Error(`--resume: no checkpoint beside ${out} (${path}); the last walk into it was complete or never started`);
  let value: Partial<ResumeRecord>;
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ResumeRecord>;
  } catch (error) {
    throw new Error(`--resume: ${path} is not readable JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (value.version !== 1 || typeof value.file !== 'string' || typeof value.where !== 'string' || typeof value.requestIndex !== 'number') {
    throw new Error(`--resume: ${path} is not an apiwb checkpoint`);
  }
  try {
    return { version: 1, file: value.file, where: value.where, requestIndex: value.requestIndex, checkpoint: parseCheckpoint(value.checkpoint) };
  } catch (error) {
    throw new Error(`--resume: ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
