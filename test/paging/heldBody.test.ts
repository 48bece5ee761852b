// The one rule of a body held whole up to a bound, streamed past it (src/core/paging/heldBody.ts): the
// streamed read gets every byte of the body, in order, exactly once, whether it took over past the bound,
// after a held answer declined, or after the body's read failed (then the read's own fault, after the
// bytes that came); a body within the bound is answered whole and never streamed; a fault of the streamed
// read's handler reaches the caller as it is. Oracle: the bytes the body's read handed out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HELD, heldOrStreamed, type HeldBudget, type Read } from '../../src/core/paging/heldBody';

/** The budget with its bytes' limit at `bytes` (the others as they are). */
const within = (bytes: number): HeldBudget => ({ ...HELD, bytes });

/** A body's read: `chunks` handed out one by one (each awaited), then `fault` thrown when given. */
function reading(chunks: readonly Buffer[], fault?: Error): { read: Read; handed: () => number } {
  let handed = 0;
  return {
    handed: () => handed,
    read: async (each) => {
      for (const chunk of chunks) {
        await each(chunk);
        handed++;
      }
      if (fault) throw fault;
    },
  };
}

const chunksOf = (text: string, size: number): Buffer[] => {
  const out: Buffer[] = [];
  for (let at = 0; at < text.length; at += size) out.push(Buffer.from(text.slice(at, at + size)));
  return out;
};

/** What the streamed read saw: the bytes, then how its read ended. */
async function streamedSaw(read: Read): Promise<{ bytes: string; fault: string }> {
  const parts: Buffer[] = [];
  try {
    await read(async (chunk) => {
      parts.push(chunk);
      await Promise.resolve();
    });
    return { bytes: Buffer.concat(parts).toString(), fault: '' };
  } catch (error) {
    return { bytes: Buffer.concat(parts).toString(), fault: (error as Error).message };
  }
}

const BODY = `[${Array.from({ length: 400 }, (_, i) => `{"id":${i}}`).join(',')}]`;

void describe('a body held whole up to a bound, streamed past it', () => {
  void it('within the bound: answered whole, never streamed', async () => {
    const { read } = reading(chunksOf(BODY, 97));
    const got = await heldOrStreamed(read, (held) => ({ bytes: held.text, fault: 'held' }), () => assert.fail('streamed'), within(BODY.length));
    assert.deepEqual(got, { bytes: BODY, fault: 'held' });
  });

  void it('past the bound, within it when the answer declines: the streamed read gets every byte once, in order', async () => {
    for (const bound of [0, 1, 96, 97, 98, 500, BODY.length - 1, BODY.length, BODY.length + 1]) {
      for (const size of [1, 97, 4096, BODY.length]) {
        const got = await heldOrStreamed(reading(chunksOf(BODY, size)).read, () => undefined, streamedSaw, within(bound));
        assert.deepEqual(got, { bytes: BODY, fault: '' }, `bound ${bound}, chunks of ${size}`);
      }
    }
  });

  void it('a read that fails, within or past the bound: the bytes that came, then its fault', async () => {
    const cut = BODY.slice(0, 1234);
    for (const bound of [10, 1233, 1234, 5000]) {
      let asked = false;
      const got = await heldOrStreamed(reading(chunksOf(cut, 100), new Error('connection reset')).read, () => { asked = true; return undefined; }, streamedSaw, within(bound));
      assert.deepEqual(got, { bytes: cut, fault: 'connection reset' }, `bound ${bound}`);
      assert.equal(asked, false, 'a body cut is never answered whole');
    }
  });

  void it('a fault of the streamed read\'s handler, while the held chunks replay or after: reaches the caller as it is, and the body is read no further', async () => {
    for (const failAt of [0, 3, 20]) {
      const body = reading(chunksOf(BODY, 100));
      let n = 0;
      const failing = (read: Read): Promise<string> => read(() => {
        if (n++ === failAt) throw new Error(`handler fault at ${failAt}`);
      }).then(() => 'ended');
      await assert.rejects(heldOrStreamed(body.read, () => undefined, failing, within(250)), new RegExp(`handler fault at ${failAt}`));
      assert.ok(body.handed() < chunksOf(BODY, 100).length, `fault at ${failAt}: the body's read stopped`);
    }
  });

  void it('a streamed read that ends on a held chunk (a fault it says in words): its answer, the body read no further', async () => {
    for (const failAt of [0, 2]) {
      const body = reading(chunksOf(BODY, 100));
      let n = 0;
      const refusing = (read: Read): Promise<string> => read(() => {
        if (n++ === failAt) throw new Error('malformed');
      }).then(() => 'ended', (error: Error) => `refused: ${error.message}`);
      assert.equal(await heldOrStreamed(body.read, () => undefined, refusing, within(250)), 'refused: malformed');
      assert.ok(body.handed() < chunksOf(BODY, 100).length, `fault at ${failAt}: the body's read stopped`);
    }
  });

  void it('no answer to try: streamed from the first byte', async () => {
    const got = await heldOrStreamed(reading(chunksOf(BODY, 50)).read, undefined, streamedSaw, within(BODY.length * 2));
    assert.deepEqual(got, { bytes: BODY, fault: '' });
  });
});
