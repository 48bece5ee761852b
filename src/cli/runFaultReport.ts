// `apiwb run` stopped by an input fault (exit 2) still writes the report asked for with --reporter: one
// entry, an error, at the file and line of the fault (the file's first line when the fault is the whole
// file's; the first file given when it is in none). Outputs never overwrite inputs here either: --report is
// claimed against every file the run would have read (the files and folders given, their .http files, the
// files their requests read, the env file beside them, the overlays, the network's certificate files); when
// that claim is refused, no report is written and the reason is said.
import { EnvFileError, type Environment } from '../core/env/model';
import type { RunFiles } from '../core/files/outputs';
import type { Redactor } from '../core/secrets/redact';
import { terminalSafe } from '../core/text/terminalText';
import { collectRequestFiles, findEnvFile, InputError, shownPath } from './nodePorts/files';
import { writeRunReport, type InputFault } from './reporters/runReport';
import type { RunIo, RunOptions } from './runArguments';
import { filesReadBy, planRequests, registerRunInputs } from './runPlan';
import { resolveRunNetwork } from './runNetwork';
import { faultText } from '../core/text/faultText';

/** What the run had done when it stopped: the inputs it registered, its environment once loaded, and whether --report was claimed. */
export interface RunInputs {
  readonly runFiles: RunFiles;
  environment?: { readonly environment: Environment; readonly envPath: string };
  reportClaimed: boolean;
}

/** Where an input fault is: its own file and line, or the first file given, line 1. */
export function inputFaultOf(error: InputError | EnvFileError, options: Pick<RunOptions, 'paths'>, redactor: Redactor): InputFault {
  const message = redactor.text(error.message);
  if (error instanceof EnvFileError) return { file: error.where.file, line: error.where.line ?? 1, message };
  if (error.where) return { file: error.where.file, line: error.where.line, message };
  const first = tryOr(() => collectRequestFiles(options.paths)[0], undefined) ?? options.paths[0] ?? '.';
  return { file: shownPath(first), line: 1, message };
}

/** Writes the report of a run stopped by `error` (nothing when no --reporter was given). */
export async function reportInputFault(options: RunOptions, error: InputError | EnvFileError, inputs: RunInputs, io: RunIo, redactor: Redactor): Promise<void> {
  if (!options.reporter) return;
  if (options.report && !inputs.reportClaimed) {
    try {
      await registerInputs(inputs, options, io);
      inputs.runFiles.claim(options.report, '--report');
    } catch (refusal) {
      io.stderr.write(`apiwb run: no report written: ${terminalSafe(redactor.text(faultText(refusal)))}\n`);
      return;
    }
  }
  const startedAt = new Date().toISOString();
  writeRunReport(options.reporter, options.report, [], { startedAt, durationMs: 0 }, redactor, io.stdout, {
    inputFault: inputFaultOf(error, options, redactor),
    paths: { cwd: process.cwd(), env: io.env },
  });
}

/**
 * Every file the run would have read, as far as it can be found (a fault stopped it before it knew them
 * all), registered as the run registers them: the files given and registerRunInputs', the files each
 * request reads (filesReadBy) and, the environment being known, the certificate files of its network.
 */
async function registerInputs(inputs: RunInputs, options: RunOptions, io: RunIo): Promise<void> {
  const { runFiles } = inputs;
  const files = options.paths.flatMap((path) => tryOr(() => collectRequestFiles([path]), []));
  for (const path of options.paths) runFiles.input(path, 'a file given');
  registerRunInputs(runFiles, files, tryOr(() => findEnvFile(options.envFile, files), options.envFile), options);
  for (const file of files) {
    for (const item of tryOr(() => planRequests([file], options.name).requests, [])) {
      for (const read of filesReadBy(item, options.env)) if (read.problem === undefined) runFiles.input(read.path, read.role);
    }
  }
  const known = inputs.environment;
  if (known) await resolveRunNetwork(options, known.environment, known.envPath, io.env, () => Promise.resolve(undefined), runFiles);
}

function tryOr<T, F>(make: () => T, fallback: F): T | F {
  try {
    return make();
  } catch {
    return fallback;
  }
}
