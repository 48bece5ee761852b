// THE user's signing key, and the one way apiwb signs a file it will read back itself and checks it (the
// code cache's entries, resume records). The key is random, this user's alone (made exclusively, 0600,
// through ownFile.ts) and kept OUTSIDE what it signs (the per-user config folder): a file copied from another
// user, another machine or another copy of apiwb, or edited since apiwb wrote it, does not verify.
// Every use names its purpose inside the signed input, so a signature made for one use never passes for another.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { readOwnFile, writeOwnFile } from './ownFile';

const KEY_BYTES = 32;

/** What a signature is for: each use of the key has its own. */
export type SignaturePurpose = 'apiwb code cache v1' | 'apiwb resume record v1';

export type UserKey = { readonly ok: true; readonly key: Buffer } | { readonly ok: false; readonly reason: string };

/** This user's signing key from `file`, made (exclusively, 0600) when there is none; why not when it is not this user's alone or cannot be made. */
export function userKey(file: string): UserKey {
  const read = readOwnFile(file, KEY_BYTES);
  if (read.ok) return read.bytes.length === KEY_BYTES ? { ok: true, key: read.bytes } : { ok: false, reason: `${file} is not a key apiwb made` };
  if (!read.missing) return { ok: false, reason: `${file} is not taken: ${read.reason}` };
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeOwnFile(file, randomBytes(KEY_BYTES));
  } catch (error) {
    return { ok: false, reason: `${file} cannot be made (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const made = readOwnFile(file, KEY_BYTES);
  return made.ok && made.bytes.length === KEY_BYTES ? { ok: true, key: made.bytes } : { ok: false, reason: `${file} cannot be read back` };
}

/** The signature of `parts`, in order, for `purpose` (HMAC-SHA256 over the purpose, a NUL, then the parts). */
export function signFor(key: Buffer, purpose: SignaturePurpose, ...parts: readonly (string | Buffer)[]): Buffer {
  const hmac = createHmac('sha256', key).update(purpose).update('\0');
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/** `signature` is the one `signFor` gives (compared in constant time). */
export function verifiedFor(key: Buffer, purpose: SignaturePurpose, signature: Buffer, ...parts: readonly (string | Buffer)[]): boolean {
  const expected = signFor(key, purpose, ...parts);
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}
