// The row splitter's warm-up (jsonRowSplitter.ts, jsonScanner.ts): why and how, below.
import { ByteBlocks } from './byteBlocks';

/**
 * Once a process, before its first splitter: a small page with every kind of token, pushed whole and in
 * chunks of 1 to 7 bytes, so that every path of the scanner (a chunk ending inside a key, a string's last bytes,
 * a literal, a number, an escape) has run once. V8 optimises its handlers from what it has seen run; without
 * this, the first network chunk to end in each such place throws the optimised code away and the scanner runs
 * unoptimised while it is compiled again: four times in a 100 MB response, about 15 ms of the main
 * thread and 30 ms of compile threads (bench/singleResponse.ts). The sample's results are not used.
 */
let warmUpDone = false;
export function warmUpOnce(make: (rowsField: string, out: ByteBlocks) => { push(chunk: Buffer): void; end(): unknown }): boolean {
  if (warmUpDone) return true;
  warmUpDone = true;
  const sample = Buffer.from('{"T":"x","Result":[{"ab":"c\\n\\u00e9d","kk":-12.25e+10,"id":12345,"t":true,"f":false,"n":null,"o":[0,{}]},"long string value"],"R":0}');
  for (const size of [sample.length, 1, 2, 3, 5, 6, 7]) {
    const splitter = make('Result', new ByteBlocks(64));
    for (let at = 0; at < sample.length; at += size) splitter.push(sample.subarray(at, at + size));
    splitter.end();
  }
  return true;
}
