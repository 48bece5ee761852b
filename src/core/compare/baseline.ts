// `apiwb compare --baseline DIR`: a recorded side (the editor's Compare Environments… reads it too). The first run writes DIR (manifest.json: what each
// request came back with; `<n>.ndjson`: its rows, as written by the redacting sink); a later run
// compares a live side with it. What is read back is untrusted: the manifest is validated, its
// requests must be the run's own (same files, lines and names), rows files are named by the product
// (`<n>.ndjson` in DIR), never by the manifest, and a request's rows are counted in its rows file (a
// manifest counting otherwise, or saying a request had no rows while its rows file is there, is refused). What is written is claimed first as any output of the run
// (src/core/files/outputs.ts: no link, no folder, no input of the run), before anything is sent.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { RunFiles } from '../files/outputs';
import { lineBreaksOfFile } from '../files/lineBreaks';
import type { SideSummary } from './requestComparison';
import { faultText } from '../text/faultText';

const MANIFEST = 'manifest.json';

const SideSummarySchema = z.strictObject({
  status: z.number().int().optional(),
  problem: z.string().optional(),
  business: z.enum(['ok', 'failed']),
  errorCodes: z.array(z.string()),
  walk: z.enum(['complete', 'cut-short', 'inconsistent', 'failed']).optional(),
  rows: z.number().int().nonnegative().optional(),
  drift: z.array(z.string()),
});

const ManifestSchema = z.strictObject({
  version: z.literal(1),
  environment: z.string(),
  allPages: z.boolean(),
  requests: z.array(z.strictObject({
    where: z.string(),
    label: z.string(),
    summary: SideSummarySchema,
    hasRows: z.boolean(),
    recordKey: z.string().optional(),
  })),
});

export type BaselineManifest = z.infer<typeof ManifestSchema>;

export class BaselineError extends Error {}

export function baselineExists(dir: string): boolean {
  return existsSync(join(dir, MANIFEST));
}

export function rowsFileOf(dir: string, index: number): string {
  return join(dir, `${index}.ndjson`);
}

export interface BaselineRequest {
  readonly where: string;
  readonly label: string;
  readonly summary: SideSummary;
  readonly rowsFile?: string;
  readonly recordKey?: string;
}

/** DIR's manifest, validated (`named`: how DIR is named in the error). */
function manifestOf(dir: string, named: string): BaselineManifest {
  try {
    return ManifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')));
  } catch (error) {
    throw new BaselineError(`${named}: ${MANIFEST} is not a baseline apiwb wrote (${error instanceof z.ZodError ? error.issues[0]?.message ?? 'invalid' : faultText(error)})`);
  }
}

/**
 * A recorded DIR's files registered as inputs of the run that compares with it (its manifest and every
 * `<n>.ndjson` rows file), so that no --out or --report of that run is written over the recording.
 */
export function registerBaselineInputs(dir: string, files: RunFiles): void {
  if (!baselineExists(dir)) return;
  files.input(join(dir, MANIFEST), 'the baseline');
  for (const name of readdirSync(dir)) if (/^\d+\.ndjson$/.test(name)) files.input(join(dir, name), 'the baseline');
}

/** The files of a baseline to record, claimed as outputs of the run: only these are written (writeBaseline). */
export interface ClaimedBaseline {
  readonly dir: string;
  readonly requests: number;
}

/**
 * DIR (made when missing) and the files recording `requests` requests would write there, claimed as
 * outputs of the run: OutputRefused when one is a link, a folder or an input of the run.
 */
export function claimBaseline(dir: string, requests: number, files: RunFiles): ClaimedBaseline {
  // A claim needs DIR to be there; a refused claim takes away the (empty) folders made for it.
  const made = mkdirSync(dir, { recursive: true });
  try {
    files.claim(join(dir, MANIFEST), '--baseline');
    for (let i = 0; i < requests; i++) files.claim(rowsFileOf(dir, i), '--baseline');
  } catch (error) {
    if (made !== undefined) rmSync(made, { recursive: true });
    throw error;
  }
  return { dir, requests };
}

/** Writes the claimed DIR: the manifest and each request's rows file (copied from the side's own). */
export function writeBaseline(claimed: ClaimedBaseline, environment: string, allPages: boolean, requests: readonly BaselineRequest[]): void {
  const { dir } = claimed;
  requests.forEach((r, i) => {
    // A request without rows leaves no rows file (one left from an earlier recording would contradict it).
    if (r.rowsFile) copyFileSync(r.rowsFile, rowsFileOf(dir, i));
    else rmSync(rowsFileOf(dir, i), { force: true });
  });
  const manifest = {
    version: 1,
    environment,
    allPages,
    requests: requests.map((r) => ({ where: r.where, label: r.label, summary: r.summary, hasRows: r.rowsFile !== undefined, ...(r.recordKey ? { recordKey: r.recordKey } : {}) })),
  };
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The baseline of DIR for this run's requests (by where and label), or a BaselineError saying what does not fit. */
export function readBaseline(dir: string, planned: readonly { readonly where: string; readonly label: string }[], allPages: boolean): BaselineRequest[] {
  const manifest = manifestOf(dir, `--baseline ${dir}`);
  if (manifest.allPages !== allPages) throw new BaselineError(`--baseline ${dir} was recorded ${manifest.allPages ? 'with' : 'without'} --all-pages; give the same options`);
  if (manifest.requests.length !== planned.length || manifest.requests.some((r, i) => r.where !== planned[i]!.where || r.label !== planned[i]!.label)) {
    throw new BaselineError(`--baseline ${dir} holds other requests (${manifest.requests.map((r) => r.label).join(', ')}); give the same files and --name as when it was recorded`);
  }
  return manifest.requests.map((r, i) => recordedRequest(dir, `--baseline ${dir}`, r, i));
}

/**
 * The manifest's request `i` with its rows file. The manifest must agree with its files: a request
 * said to have rows has its rows file, holding as many rows as the manifest counts (none counted: none
 * held); one said to have none has no rows file and no count. Else it is not what apiwb wrote: refused.
 */
function recordedRequest(dir: string, named: string, r: BaselineManifest['requests'][number], i: number): BaselineRequest {
  const rowsFile = rowsFileOf(dir, i);
  const notWritten = `it is not the baseline apiwb wrote; record it again`;
  if (!r.hasRows) {
    if (existsSync(rowsFile) || r.summary.rows !== undefined) {
      throw new BaselineError(`${named}: ${MANIFEST} says ${r.label} had no rows, but ${existsSync(rowsFile) ? `${i}.ndjson is there` : `it counts ${r.summary.rows ?? 0}`}: ${notWritten}`);
    }
  } else {
    if (!existsSync(rowsFile)) throw new BaselineError(`${named}: ${i}.ndjson is missing`);
    const held = lineBreaksOfFile(rowsFile);
    if (held !== (r.summary.rows ?? 0)) throw new BaselineError(`${named}: ${MANIFEST} counts ${r.summary.rows ?? 0} rows for ${r.label}, but ${i}.ndjson holds ${held}: ${notWritten}`);
  }
  return { where: r.where, label: r.label, summary: r.summary, ...(r.hasRows ? { rowsFile } : {}), ...(r.recordKey ? { recordKey: r.recordKey } : {}) };
}

/**
 * One request of DIR's baseline, found by its label (the editor's requests have no CLI path to match):
 * a BaselineError when DIR is not a baseline, was recorded with other paging, or holds no such request.
 */
export function baselineRequest(dir: string, label: string, allPages: boolean): BaselineRequest {
  const manifest = manifestOf(dir, dir);
  if (manifest.allPages !== allPages) throw new BaselineError(`${dir} was recorded ${manifest.allPages ? 'with all pages' : 'with the first page only'}; compare the same way`);
  const i = manifest.requests.findIndex((r) => r.label === label);
  const r = manifest.requests[i];
  if (!r) throw new BaselineError(`${dir} holds no request named ${label} (it holds ${manifest.requests.map((x) => x.label).join(', ')})`);
  return recordedRequest(dir, dir, r, i);
}
