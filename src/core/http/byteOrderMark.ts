// A UTF-8 byte order mark at the start of a response body is no part of its content: RFC 8259 §8.1 lets a
// JSON reader ignore it, and the Encoding Standard's UTF-8 decode drops it. The client drops exactly one
// (the body's first three bytes EF BB BF, wherever its first chunks end) from every body it reads, so every
// reader after it (JSON held or streamed, the rows, the business check, the text shown) starts at the
// body's first character; a second mark, or one later in the body, stays (and is not JSON).
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

type Read = (each: (chunk: Buffer) => void | Promise<void>) => Promise<void>;

/** `read` (StreamingResponse.read) handing on its body without one leading byte order mark. */
export function withoutByteOrderMark(read: Read): Read {
  return async (each) => {
    /** The body's first bytes while they may still be the mark (fewer than three, all of them its own). */
    let head: Buffer | undefined = Buffer.alloc(0);
    await read((chunk) => {
      if (!head) return each(chunk);
      const start: Buffer = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (start.length < BOM.length && BOM.subarray(0, start.length).equals(start)) {
        head = Buffer.from(start);
        return undefined;
      }
      head = undefined;
      const rest = start.subarray(0, BOM.length).equals(BOM) ? start.subarray(BOM.length) : start;
      return rest.length > 0 ? each(rest) : undefined;
    });
    // A body of one or two bytes that began as the mark but is not one: handed on as it came.
    if (head && head.length > 0) await each(head);
  };
}
