export { type FileSinkOptions, type RowSink, type SinkCheckpoint, type SinkFormat } from './sink';
import { openCsvSink } from './csvSink';
import { openNdjsonSink } from './ndjsonSink';
import type { FileSinkOptions, RowSink, SinkCheckpoint, SinkFormat } from './sink';

/** Opens a file sink by format, or reopens the one a checkpoint names. */
export function openFileSink(format: SinkFormat, path: string, options: FileSinkOptions = {}): Promise<RowSink> {
  return format === 'csv' ? openCsvSink(path, options) : openNdjsonSink(path, options);
}

export function reopenFileSink(checkpoint: SinkCheckpoint, options: Omit<FileSinkOptions, 'resume'> = {}): Promise<RowSink> {
  return openFileSink(checkpoint.format, checkpoint.path, { ...options, resume: checkpoint });
}
export { redactingSink } from './redactingSink';
