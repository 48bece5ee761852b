// `--out FILE`: one sink for every row of the run, whichever request or page it came from. NDJSON and
// CSV are the export module's sinks (the same files the panel's "all pages" writes: CSV fixes its header
// on the first rows and keeps keys first seen later in `_extra`); `json` is a JSON array on the same
// append-only file. All three take rows as they arrive (a single response, or each page of a walk,
// streamed whatever its size: core/export/encodedSink.ts). Every row passes a scrub first: rows are the service's data, but a response that
// echoes one of the run's secrets must not put it on disk.
import { writeSync } from 'node:fs';
import { openFileSink, redactingSink, type RowSink, type SinkCheckpoint } from '../../core/export';
import { openJsonArraySink } from '../../core/export/jsonArraySink';
import { Redactor } from '../../core/secrets';
import { terminalSafe } from '../../core/text/terminalText';

export type OutputFormat = 'ndjson' | 'csv' | 'json';

/** Secret values to scrub; read on every page, so values learnt during the run count too. */
export type KnownSecrets = () => readonly string[];

export interface OutputOptions {
  /** Reopen the file at a walk checkpoint's length (`--resume`) instead of starting it empty. */
  readonly resume?: SinkCheckpoint;
  /** Asked at close when no row was written: false leaves the file that was there as it was. */
  readonly replaceUnwritten?: () => boolean;
  /** --csv-raw: cells that start like a formula are written as they are. */
  readonly csvFormulas?: 'neutralise' | 'raw';
}

/**
 * How a note of an output file reaches the user (where the old file is kept, said from a signal handler
 * when a run is stopped): at once on stderr, redacted and terminal-safe, as every other CLI line — the one
 * way `run --out` and `compare --out` say it.
 */
export function fileNote(redact: (text: string) => string): (note: string) => void {
  return (note) => void writeSync(2, `apiwb: ${terminalSafe(redact(note))}\n`);
}

export async function openOutputSink(path: string, format: OutputFormat, secrets: KnownSecrets, options: OutputOptions = {}): Promise<RowSink> {
  if (options.resume && format === 'json') throw new Error('a JSON array file cannot be resumed');
  // One redactor for the run, told of the values learnt since the last page (a no-op when there are none).
  const redactor = new Redactor();
  // The file's own note (where the old file is kept, at a stop) as every other line: redacted, terminal-safe.
  const say = fileNote((note) => {
    redactor.addKnownSecrets(secrets());
    return redactor.text(note);
  });
  const fileOptions = { ...(options.resume ? { resume: options.resume } : {}), ...(options.replaceUnwritten ? { replaceUnwritten: options.replaceUnwritten } : {}), ...(options.csvFormulas ? { csvFormulas: options.csvFormulas } : {}), say };
  const inner = format === 'json' ? await openJsonArraySink(path, fileOptions) : await openFileSink(format, path, fileOptions);
  return redactingSink(inner, () => {
    redactor.addKnownSecrets(secrets());
    return redactor;
  });
}
