// `--out FILE`: one sink for every row of the run, whichever request or page it came from. NDJSON and
// CSV are the export module's sinks (the same files the panel's "all pages" writes: CSV fixes its header
// on the first page and keeps keys first seen later in `_extra`); `json` is a JSON array on the same
// append-only file. Every row passes a scrub first: rows are the service's data, but a response that
// echoes one of the run's secrets must not put it on disk.
import { openFileSink, redactingSink, type FileSinkOptions, type RowSink, type SinkCheckpoint } from '../../core/export';
import { AppendOnlyFile } from '../../core/export/fileSink';
import { Redactor } from '../../core/secrets';

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

export async function openOutputSink(path: string, format: OutputFormat, secrets: KnownSecrets, options: OutputOptions = {}): Promise<RowSink> {
  if (options.resume && format === 'json') throw new Error('a JSON array file cannot be resumed');
  const fileOptions = { ...(options.resume ? { resume: options.resume } : {}), ...(options.replaceUnwritten ? { replaceUnwritten: options.replaceUnwritten } : {}), ...(options.csvFormulas ? { csvFormulas: options.csvFormulas } : {}) };
  const inner = format === 'json' ? await openJsonArraySink(path, fileOptions) : await openFileSink(format, path, fileOptions);
  // One redactor for the run, told of the values learnt since the last page (a no-op when there are none).
  const redactor = new Redactor();
  return redactingSink(inner, () => {
    redactor.addKnownSecrets(secrets());
    return redactor;
  });
}

/** `[` + one row a line + `]`: valid JSON at close, written page by page like the others. */
async function openJsonArraySink(path: string, options: FileSinkOptions): Promise<RowSink> {
  const file = await AppendOnlyFile.open(path, options);
  let written = 0;
  return {
    format: 'memory',
    async writePage(rows) {
      if (rows.length === 0) return;
      const lines = rows.map((row, i) => `${written + i === 0 ? '[\n' : ',\n'}${JSON.stringify(row) ?? 'null'}`);
      await file.append(lines.join(''));
      written += rows.length;
    },
    checkpoint: () => undefined,
    mark() {
      const [fileMark, writtenThen] = [file.mark(), written];
      return {
        cutBack: async () => {
          await fileMark.cutBack();
          written = writtenThen;
        },
      };
    },
    async close() {
      try {
        if (written > 0 || options.replaceUnwritten?.() !== false) await file.append(written === 0 ? '[]\n' : '\n]\n');
      } catch (error) {
        await file.closeAfterFault();
        throw error;
      }
      await file.close();
    },
    leftAsItWas: () => file.leftAsItWas,
  };
}
