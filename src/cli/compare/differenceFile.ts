// `apiwb compare --out FILE`: the differences as NDJSON, one a line, written as they are found
// (memory holds none of them): {request, kind: added|removed|changed, key, before, after, fields}, and
// {request, kind: "request", differences} for what differs besides records. The rows in it come from
// the sides' rows files, which the redacting sink already scrubbed of the run's secrets.
import { AppendOnlyFile } from '../../core/export/fileSink';
import type { RecordDifference } from '../../core/compare/partitioned';

export interface DifferenceWriter {
  difference(request: string, difference: RecordDifference): Promise<void>;
  request(request: string, differences: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** `say`: how the file's note reaches the user (reporters/outputSink.ts: fileNote). */
export async function differenceWriter(path: string, say: (note: string) => void): Promise<DifferenceWriter> {
  const file = await AppendOnlyFile.open(path, { say });
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
    difference: (request, d) => write(`${JSON.stringify({ request, ...d })}\n`),
    request: (request, differences) => write(`${JSON.stringify({ request, kind: 'request', differences })}\n`),
    async close() {
      if (pending.length) await file.append(pending.join(''));
      pending = [];
      await file.close();
    },
  };
}
