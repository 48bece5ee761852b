// A file sink whose format encodes rows in a context of its own (CSV's header, fixed by the first rows
// written; a JSON array's opening bracket and commas) takes the walker's streamed pages as the NDJSON
// sink does (writeNdjsonPage, openPage): so `--out x.csv` and `--format json` stream a response of any
// size as it arrives, never the whole body. The NDJSON lines are parsed back into rows and encoded like
// any page (a format may take their bytes as they are: encodeNdjson). The context goes with the bytes
// that wrote it: a held page dropped, or a mark cut back to, puts it back as it was then, so the next
// rows write their own header or bracket.
// Where a page ends (a page written whole, a held page kept) and at close, rows the encoder holds back
// are written (finish: CSV's first rows until its header is fixed); writeNdjsonPage and writeRowsPart
// are parts of a page (a single response's rows as they arrive), so they do not end one: endPage does. At close the
// file is ended after the rows kept (end: a JSON array's bracket). A run stopped (Ctrl-C, a kill) ends
// neither: the file holds the bytes written so far.
import type { AppendOnlyFile } from './fileSink';
import { ndjsonRows } from './ndjsonSink';
import type { HeldPage, RowSink, SinkCheckpoint } from './sink';

export interface RowEncoder {
  /** `rows` as the file's text after the rows encoded before (a header or bracket first, when due); '' for none. */
  encode(rows: readonly unknown[]): string;
  /** Optional: NDJSON lines of rows as the file's bytes, as they are (no parse); new buffers, the lines are not kept. */
  encodeNdjson?(lines: readonly Buffer[]): readonly Buffer[];
  /** Optional: the rows encode() held back, as text (a page ends, or the file); '' for none. */
  finish?(): string;
  /** Optional: what ends the file after every row, at close; '' for nothing. */
  end?(): string;
  /** The context now; calling the result puts it back (what was encoded since is cut off the file). */
  save(): () => void;
}

/** `file` as a sink of `encoder`'s format; `checkpoint` says where it stands after a page kept. */
export function encodedSink(file: AppendOnlyFile, format: RowSink['format'], encoder: RowEncoder, checkpoint: () => SinkCheckpoint | undefined): RowSink {
  const bytesOf = (text: string): Buffer[] => (text === '' ? [] : [Buffer.from(text, 'utf8')]);
  const encodeRows = (rows: readonly unknown[]): Buffer[] => bytesOf(encoder.encode(rows));
  const encodeLines = (lines: readonly Buffer[]): readonly Buffer[] => (encoder.encodeNdjson ? encoder.encodeNdjson(lines) : encodeRows(ndjsonRows(lines)));
  const finish = (): Buffer[] => bytesOf(encoder.finish?.() ?? '');
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
    writePage: (rows) => append(() => [...encodeRows(rows), ...finish()]),
    writeRowsPart: (rows) => append(() => encodeRows(rows)),
    writeNdjsonPage: (lines) => append(() => encodeLines(lines)),
    endPage: () => append(finish),
    openPage(): HeldPage {
      // As the file's drop cuts back to the bytes last kept, the context goes back to where it was then.
      let putBack = encoder.save();
      return {
        writeNdjson: (lines) => file.hold(encodeLines(lines)),
        writeRows: (rows) => file.hold(encodeRows(rows)),
        keep: async () => {
          await file.hold(finish());
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
    async close() {
      try {
        await file.appendBuffers([...finish(), ...bytesOf(encoder.end?.() ?? '')]);
      } catch (error) {
        await file.closeAfterFault();
        throw error;
      }
      await file.close();
    },
    leftAsItWas: () => file.leftAsItWas,
  };
}
