// `apiwb compare --out FILE`: the differences as NDJSON, one a line, written as they are found
// (memory holds none of them): {request, kind: added|removed|changed, key, before, after, fields}, and
// {request, kind: "request", differences} for what differs besides records. Every line passes the
// Redactor, whatever the sides are: two exports given to compare (another tool's, or hand-made) never
// passed one, and a live side's rows passed it before this run knew all its secrets.
import { AppendOnlyFile } from '../../core/export/fileSink';
import { pathNames, type FieldChange } from '../../core/compare/fieldChanges';
import type { RecordDifference } from '../../core/compare/partitioned';
import { REDACTED, type Redactor } from '../../core/secrets/redact';
import { isSecretName } from '../../core/secrets/vocabulary';
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
export async function differenceWriter(path: string, finished: () => boolean, say: (note: string) => void, redactor: Redactor): Promise<DifferenceWriter> {
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
    difference: (request, d) => write(`${jsonText({ request: redactor.text(request), ...shownDifference(d, redactor) }) ?? ''}\n`),
    request: (request, differences) => write(`${JSON.stringify({ request: redactor.text(request), kind: 'request', differences: differences.map((line) => redactor.text(line)) })}\n`),
    async close() {
      if (pending.length) await file.append(pending.join(''));
      pending = [];
      await file.close();
    },
  };
}

/** A difference as it may be written: its key and records as rows are (Redactor.row), its field changes as those records show the field. */
function shownDifference(d: RecordDifference, redactor: Redactor): RecordDifference {
  const shown = (value: unknown): unknown => redactor.row(value);
  return {
    kind: d.kind,
    ...('key' in d ? { key: shown(d.key) } : {}),
    ...('before' in d ? { before: shown(d.before) } : {}),
    ...('after' in d ? { after: shown(d.after) } : {}),
    ...(d.fields ? { fields: d.fields.map((field) => shownField(field, shown, redactor)) } : {}),
  };
}

/** A field under a secret name (or inside one) is masked as row() masks it in the record; any other field's values pass row(). */
function shownField(field: FieldChange, shown: (value: unknown) => unknown, redactor: Redactor): FieldChange {
  const secret = pathNames(field.path).some(isSecretName);
  const value = (v: unknown): unknown => (secret ? (v === null || v === '' ? v : REDACTED) : shown(v));
  return {
    path: redactor.text(field.path),
    kind: field.kind,
    ...('before' in field ? { before: value(field.before) } : {}),
    ...('after' in field ? { after: value(field.after) } : {}),
  };
}
