// A file sink whose format encodes rows in a context of its own (CSV's header, fixed by the first rows
// written; a JSON array's opening bracket and commas) takes the walker's streamed pages as the NDJSON
// sink does (writeNdjsonPage, openPage): so `--out x.csv` and `--format json` stream a response of any
// size as it arrives, never the whole body. The NDJSON lines are parsed back into rows and encoded like
// any page (a format may take their bytes as they are: encodeNdjson). The context goes with the bytes
// that wrote it: a held page dropped, or a mark cut back to, puts it back as it was then, so the next
// rows write their own header or bracket.
import type { AppendOnlyFile } from './fileSink';
import { ndjsonRows } from './ndjsonSink';
import type { HeldPage, RowSink, SinkCheckpoint } from './sink';

export interface RowEncoder {
  /** `rows` as the file's text after the rows encoded before (a header or bracket first, when due); '' for none. */
  encode(rows: readonly unknown[]): string;
  /** Optional: NDJSON lines of rows as the file's bytes, as they are (no parse); new buffers, the lines are not kept. */
  encodeNdjson?(lines: readonly Buffer[]): readonly Buffer[];
  /** The context now; calling the result puts it back (what was encoded since is cut off the file). */
  save(): () => void;
}

/** `file` as a sink of `encoder`'s format; `checkpoint` says where it stands after a page kept. */
export function encodedSink(file: AppendOnlyFile, format: RowSink['format'], encoder: RowEncoder, checkpoint: () => SinkCheckpoint | undefined): RowSink {
  const encodeRows = (rows: readonly unknown[]): Buffer[] => {
    const text = encoder.encode(rows);
    return text === '' ? [] : [Buffer.from(text, 'utf8')];
  };
  const encodeLines = (lines: readonly Buffer[]): readonly Buffer[] => (encoder.encodeNdjson ? encoder.encodeNdjson(lines) : encodeRows(ndjsonRows(lines)));
  /** Appends and keeps `encode()`'s bytes; a write that fails leaves the context as it was (the file's kept bytes are). */
  const append = async (encode: () => readonly Buffer[]): Promise<void> => {
    const putBack = encoder.save();
    try {
      await file.appendBuffers(encode());
    } catch (error) {
      putBack();
      throw error;
    }
  };
  return {
    format,
    writePage: (rows) => append(() => encodeRows(rows)),
    writeNdjsonPage: (lines) => append(() => encodeLines(lines)),
    openPage(): HeldPage {
      // As the file's drop cuts back to the bytes last kept, the context goes back to where it was then.
      let putBack = encoder.save();
      return {
        writeNdjson: (lines) => file.hold(encodeLines(lines)),
        writeRows: (rows) => file.hold(encodeRows(rows)),
        keep: async () => {
          await file.keep();
          putBack = encoder.save();
        },
        drop: async () => {
          await file.drop();
          putBack();
        },
      };
    },
    checkpoint,
    mark() {
      const [fileMark, putBack] = [file.mark(), encoder.save()];
      return {
        cutBack: async () => {
          await fileMark.cutBack();
          putBack();
        },
      };
    },
    close: () => file.close(),
    leftAsItWas: () => file.leftAsItWas,
  };
}
