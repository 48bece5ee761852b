// The oracle of a body's fault, the row splitter fed the whole body one byte at a
// time (no lanes, no skeleton): the words a reading of the whole body gives. Not a test (no .test.ts suffix).
import { ByteBlocks, JsonRowSplitter } from '../../src/core/export/jsonRowSplitter';

/** The words of the fault a byte-by-byte reading of the whole body gives (undefined: none). */
export function byteByByteFault(text: string): string | undefined {
  const bytes = Buffer.from(text);
  const splitter = new JsonRowSplitter('\u0000none', new ByteBlocks(64));
  try {
    for (let i = 0; i < bytes.length; i++) splitter.push(bytes.subarray(i, i + 1));
    splitter.end();
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}
