// A body read whole and parsed by JSON.parse is refused in the product's words, as a streamed one is: on
// JSON.parse's SyntaxError (the failure path only), the row splitter's grammar (jsonScanner.ts) reads the
// same bytes and says where they stop being JSON (MalformedJsonError: its byte and what is wrong there).
// V8's own words ("Unexpected token ...") never reach the user.

import { JsonScanner } from './jsonScanner';
import { MalformedJsonError } from './splitResult';

/** The grammar alone: no value is watched, nothing is kept. */
class FaultScanner extends JsonScanner {
  protected bodyStarts(): boolean {
    return true;
  }
  protected valueStart(): void {}
  protected valueEnd(): void {}
  protected opened(): void {}
  protected closed(): void {}
  protected fieldKey(): void {}
  protected rowKey(): void {}
  protected chunkEnds(): void {}
  protected beforeFault(): void {}

  /** Where `bytes` stop being JSON (its end, when they stop early), or undefined when the grammar takes them. */
  faultOf(bytes: Buffer): MalformedJsonError | undefined {
    try {
      this.scan(bytes);
    } catch (error) {
      if (error instanceof MalformedJsonError) return error;
      throw error;
    }
    return this.complete ? undefined : new MalformedJsonError({ endedEarly: true, offset: bytes.length });
  }
}

/** Where a body JSON.parse refused stops being JSON, in the product's words (`text` as decoded from `bytes`, when they are at hand). */
export function jsonFault(text: string, bytes: Buffer = Buffer.from(text, 'utf8')): MalformedJsonError {
  // A body the grammar takes but JSON.parse does not (none is known): said without V8's words all the same.
  return new FaultScanner().faultOf(bytes) ?? new MalformedJsonError('malformed JSON');
}

/** JSON.parse, its SyntaxError said as MalformedJsonError (jsonFault). */
export function parseJsonText(text: string, bytes?: Buffer): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) throw jsonFault(text, bytes);
    throw error;
  }
}

/** A top-level field's bytes parsed (the row splitter's), a fault said with the field's name. */
export function parseField(raw: Buffer, key: string): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new MalformedJsonError(`malformed JSON in field "${key}": ${(error as Error).message}`);
  }
}
