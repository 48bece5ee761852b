// How many rows a file of the product's rows holds, counted from the file itself (never taken from a
// record or a manifest read back): its line breaks (\n) in the first `bytes`. An NDJSON row is one line;
// a CSV row at least one, after its header. Read in blocks: the file is never held whole.
import { closeSync, openSync, readSync } from 'node:fs';

const BLOCK = 1024 * 1024;

/** The \n bytes among the first `bytes` of the open file `fd` (fewer when it ends before). */
export function lineBreaksIn(fd: number, bytes: number): number {
  const block = Buffer.alloc(Math.min(bytes, BLOCK));
  let breaks = 0;
  for (let at = 0; at < bytes;) {
    const n = readSync(fd, block, 0, Math.min(block.length, bytes - at), at);
    if (n === 0) break;
    for (let i = block.indexOf(0x0a, 0); i >= 0 && i < n; i = block.indexOf(0x0a, i + 1)) breaks++;
    at += n;
  }
  return breaks;
}

/** The lines of a whole file (an NDJSON file: its rows). */
export function lineBreaksOfFile(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return lineBreaksIn(fd, Number.MAX_SAFE_INTEGER);
  } finally {
    closeSync(fd);
  }
}
