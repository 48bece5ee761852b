// contentEncoding.ts decodedBody: a coding that fails at the body's end (a wrong CRC-32, bytes after a
// gzip member) hands on every byte decoded before the fault, then says why (`cut`), whatever the
// reader's pace, the body's chunk size, or the number of codings. Each case has a reader that pauses
// after every chunk (the decoders' output waits in their buffers when the fault comes).
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { decodedBody, isDecodingError } from '../../src/core/http/contentEncoding';

const TEXT = Buffer.from(`[${Array.from({ length: 30_000 }, (_, i) => `{"id":${i},"pad":"${'x'.repeat(80)}"}`).join(',')}]`);
const badCrc = (gz: Buffer): Buffer => {
  const copy = Buffer.from(gz);
  copy[copy.length - 8] = copy[copy.length - 8]! ^ 0xff;
  return copy;
};

/** `bytes` in chunks of `size`, decoded; a reader that waits a turn after every chunk. */
async function slowRead(bytes: Buffer, codings: string[], size: number): Promise<{ got: Buffer; cut: unknown }> {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  const decoded = decodedBody(Readable.from(parts), codings);
  const got: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    decoded.stream.on('data', (chunk: Buffer) => {
      got.push(chunk);
      decoded.stream.pause();
      setImmediate(() => decoded.stream.resume());
    });
    decoded.stream.on('end', resolve);
    decoded.stream.on('error', reject);
  });
  return { got: Buffer.concat(got), cut: decoded.cut() };
}

const CASES: Record<string, { bytes: Buffer; codings: string[] }> = {
  'gzip, a wrong CRC-32': { bytes: badCrc(gzipSync(TEXT)), codings: ['gzip'] },
  'gzip, bytes after the member': { bytes: Buffer.concat([gzipSync(TEXT), Buffer.from('trailing')]), codings: ['gzip'] },
  'gzip, one byte after the member': { bytes: Buffer.concat([gzipSync(TEXT), Buffer.from('!')]), codings: ['gzip'] },
  'deflate, a wrong Adler-32': { bytes: ((z: Buffer) => Buffer.concat([z.subarray(0, -1), Buffer.from([z[z.length - 1]! ^ 0xff])]))(deflateSync(TEXT)), codings: ['deflate'] },
  // gzip applied first, then br: the fault is in the second decoder.
  'gzip then br, the gzip CRC-32 wrong': { bytes: brotliCompressSync(badCrc(gzipSync(TEXT))), codings: ['gzip', 'br'] },
};

void describe('decodedBody: a coding that fails at the end', () => {
  for (const [name, { bytes, codings }] of Object.entries(CASES)) {
    for (const size of [1_000, 64 << 10]) {
      void it(`${name}, ${size}-byte chunks, a slow reader: every decoded byte, then the fault`, async () => {
        const { got, cut } = await slowRead(bytes, codings, size);
        assert.equal(got.length, TEXT.length, 'every byte the body decodes to');
        assert.ok(got.equals(TEXT));
        assert.ok(isDecodingError(cut), `the coding's fault: ${String(cut)}`);
      });
    }
  }

  void it('a body that decodes whole ends with no fault', async () => {
    const { got, cut } = await slowRead(gzipSync(TEXT), ['gzip'], 1_000);
    assert.ok(got.equals(TEXT));
    assert.equal(cut, undefined);
  });
});
