// A streamed response's body kept for the steps that read it whole (assertions, the contract check) and
// for a later request that reads it by name ({{name.response.body…}}), while its rows stream to --out:
// the bytes go to a spill file as they arrive (src/core/json/spill.ts: 0600, removed after), never held
// in memory with the rows; read back once the response is in, and only up to the body limit (the one a
// buffered response is held to). Over it, the steps are not run on it, and say so.
import { DEFAULT_MAX_BODY_BYTES } from '../http/client';
import { openSpill, type Spill } from '../json/spill';

export class KeptBody {
  private spill: Spill | undefined;
  private opening: Promise<Spill> | undefined;
  size = 0;

  constructor(private readonly limit = DEFAULT_MAX_BODY_BYTES) {}

  /** Appends a chunk of the body as it arrives (past the limit it is only counted). */
  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.size > this.limit) return;
    this.opening ??= openSpill();
    this.spill = await this.opening;
    await this.spill.write(chunk);
  }

  /** The body's text, or why it is not read back (over the limit). The spill is removed either way. */
  async text(): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
    try {
      if (this.size > this.limit) {
        return { ok: false, reason: `${notReadWhole(this.size, this.limit)}; its rows went to the output as they arrived, but checks that read the whole body were not run on it` };
      }
      // One buffer of the body's size, filled piece by piece: the bytes are held once, then as text.
      const whole = Buffer.allocUnsafe(this.size);
      let at = 0;
      await this.spill?.readBack((piece) => { at += piece.copy(whole, at); });
      return { ok: true, text: whole.toString('utf8', 0, at) };
    } finally {
      await this.remove();
    }
  }

  async remove(): Promise<void> {
    const spill = this.spill ?? (await this.opening?.catch(() => undefined));
    this.spill = undefined;
    this.opening = undefined;
    await spill?.remove();
  }
}

/** Why a body of `size` bytes is not read back whole: the one wording of the CLI's and the panel's over-limit case. */
export function notReadWhole(size: number, limit: number): string {
  return `the response body (${mib(size)}) is larger than the ${mib(limit)} a body is read whole within`;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0)} MiB`;
}
