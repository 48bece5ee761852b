// `apiwb compare --out FILE`: the differences as NDJSON, one a line, written as they are found
// (memory holds none of them): {request, kind: added|removed|changed, key, before, after, fields}, and
// {request, kind: "request", differences} for what differs besides records. The rows in it come from
// the sides' rows files, which the redacting sink already scrubbed of the run's secrets.
import { AppendOnlyFile } from '../../core/export/fileSink';
import type { RecordDifference } from '../../core/compare/partitioned';
import { jsonText } from '../../core/json/numberText';
import { faultText } from '../../core/text/faultText';
import { InputError } from '../nodePorts/files';

export interface DifferenceWriter {
  difference(request: string, difference: RecordDifference): Promise<void>;
  request(request: string, differences: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opened as `apiwb run` opens its --out (AppendOnlyFile): the file there stays until the first difference
 * is written, then waits aside until close; `finished` false at close (the comparison stopped before its
 * end) with nothing written puts it back, as it was. A file that cannot be written is an input error.
 * `say`: how the file's note reaches the user (reporters/outputSink.ts: fileNote).
 */
export async function differenceWriter(path: string, finished: () => boolean, say: (note: string) => void): Promise<DifferenceWriter> {
  let file: AppendOnlyFile;
  try {
    file = await AppendOnlyFile.open(path, { replaceUnwritten: finished, say });
  } catch (error) {
    throw new InputError(`--out ${path}: ${faultText(error)}`);
  }
  let pending: string[] = [];
  let size = 0;
  const write = async (line: string): Promise<void> => {
    pending.push(line);
    size += line.length;
    if (size < 64 * 1024) return;
    const text = pending.join('');
    pending = [];
    size = 0;
    await file.append(text);
  };
  return {
    // jsonText: a number kept as its text (a NumberText) is written as it came, not as a double.
    difference: (request, d) => write(`${jsonText({ request, ...d }) ?? ''}\n`),
    request: (request, differences) => write(`${JSON.stringify({ request, kind: 'request', differences })}\n`),
    async close() {
      if (pending.length) await file.append(pending.join(''));
      pending = [];
      await file.close();
    },
  };
}
