// Where a page cut falls among a form body's fields (application/x-www-form-urlencoded, read a page at a
// time: bodyPages.ts). A form's secret-named field has its value masked (Redactor.body: isSecretName of the
// name as the form decodes it), but a page is redacted on its own and one that starts inside a field does
// not see its name: `word=VALUE` or `VALUE&…` reads as nothing secret. So the scanner's state at a cut (the
// name read so far, or whether the value being read is a secret's) is kept with the cut, and the page that
// starts there masks the rest of that value up to its `&`, wherever the cut fell: in the name, right after
// its `=`, or in the value.
import { REDACTED } from '../secrets/redact';
import { isSecretName } from '../secrets/vocabulary';

export interface FieldState {
  /** The bytes of the name read so far (one past the cap when longer), or undefined once its `=` is read. */
  readonly name: readonly number[] | undefined;
  /** In the value of a secret-named field. */
  readonly secret: boolean;
}

export const FIELD_START: FieldState = { name: [], secret: false };

const AMP = 0x26, EQUALS = 0x3d;
/** A name longer than this is not held: its value is masked as a secret's (its words are not known). */
const NAME_LIMIT = 4096;
const MASK = Buffer.from(REDACTED);

/** One form byte scanner: the field being read, its name's bytes until its `=`. */
export class FormFieldScanner {
  private name: number[] | undefined;
  private secret: boolean;

  constructor(state: FieldState = FIELD_START) {
    this.name = state.name ? [...state.name] : undefined;
    this.secret = state.secret;
  }

  get state(): FieldState {
    return { name: this.name ? [...this.name] : undefined, secret: this.secret };
  }

  /** In the value of a secret-named field. */
  get inSecretValue(): boolean {
    return this.name === undefined && this.secret;
  }

  step(byte: number): void {
    if (byte === AMP) {
      this.name = [];
      this.secret = false;
    } else if (this.name === undefined) return;
    else if (byte === EQUALS) {
      this.secret = this.name.length > NAME_LIMIT || isSecretName(formName(this.name));
      this.name = undefined;
    } else if (this.name.length <= NAME_LIMIT) this.name.push(byte);
  }
}

/** A name's bytes as the form reads them (`+` a blank, percent-escapes undone), as Redactor.body's URLSearchParams does. */
function formName(bytes: readonly number[]): string {
  // After an `&`: a leading `?` is then the name's own, as it is for every field but a body's first.
  return new URLSearchParams(`&${Buffer.from(bytes).toString('utf8')}=`).keys().next().value ?? '';
}

/**
 * A page's bytes, the page starting at a cut with `state`: when the cut fell inside a secret-named field,
 * the rest of its value (up to its `&`) is the mask. A page starting at a field's start is as read.
 */
export function maskFieldHead(bytes: Buffer, state: FieldState): Buffer {
  if (state.name?.length === 0) return bytes;
  const amp = bytes.indexOf(AMP);
  const fieldEnd = amp < 0 ? bytes.length : amp;
  const scanner = new FormFieldScanner(state);
  let valueAt = 0;
  if (state.name !== undefined) {
    // Cut in the name: the rest of it, up to its `=`, says whether the field is a secret's.
    const equals = bytes.subarray(0, fieldEnd).indexOf(EQUALS);
    if (equals < 0) return bytes;
    for (let i = 0; i <= equals; i++) scanner.step(bytes[i]!);
    valueAt = equals + 1;
  }
  return scanner.inSecretValue ? Buffer.concat([bytes.subarray(0, valueAt), MASK, bytes.subarray(fieldEnd)]) : bytes;
}
