// The steps the tests holding a resume record to what produced it share: a walk cut short by a fault
// (exit 1) against a small server, its resume record and its file kept; then, case by case, the file put
// back as the cut left it and the walk resumed from the record as the case edits it.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalServer } from './localServer';
import { runInProcess } from './inProcess';
import { writeSignedRecord } from './signedRecord';
import type { CliResult } from './cliProcess';

export interface CutWalk {
  readonly args: readonly string[];
  readonly out: string;
  /** The record and the file as the cut left them. */
  readonly original: string;
  readonly kept: string;
}

/** Runs the request file `text` with --all-pages --out against `local`; the server must fail a page (exit 1). */
export async function cutWalk(local: LocalServer, text: string): Promise<CutWalk> {
  const file = join(local.dir, 'walk.http');
  writeFileSync(file, text);
  const out = join(local.dir, 'rows.ndjson');
  const args = [file, '--env', 'local', '--env-file', local.envFile, '--all-pages', '--out', out];
  const cut = await runInProcess(args);
  assert.equal(cut.code, 1, cut.stdout + cut.stderr);
  return { args, out, original: readFileSync(recordOf(out), 'utf8'), kept: readFileSync(out, 'utf8') };
}

/** The file as the cut left it, the record as `edit` makes it (its JSON, parsed), then `--resume`. */
export async function resumeEdited<T>(cut: CutWalk, edit: (record: T) => void): Promise<CliResult> {
  writeFileSync(cut.out, cut.kept);
  const record = recordOf(cut.out);
  rmSync(record, { force: true });
  const r = JSON.parse(cut.original) as T;
  edit(r);
  writeSignedRecord(record, r as object);
  return runInProcess([...cut.args, '--resume']);
}

/** The ids of the rows the file holds. */
export function idsOf(cut: CutWalk): number[] {
  return readFileSync(cut.out, 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: number }).id);
}

const recordOf = (out: string): string => `${out}.apiwb-resume.json`;
