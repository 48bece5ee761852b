// THE user's signing key, and the one way apiwb signs a file it will read back itself and checks it (the
// code cache's entries, resume records). The key is random, this user's alone (made exclusively, 0600,
// through ownFile.ts) and kept OUTSIDE what it signs (the per-user config folder): a file copied from another
// user, another machine or another copy of apiwb, or edited since apiwb wrote it, does not verify.
// Every use names its purpose inside the signed input, so a signature made for one use never passes for another.
// The file holds the key in one exact form (a header line, then the key in hex): a file of any other
// content (rows written over it, a truncated copy) is refused, never taken as the key.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { readOwnFile, writeOwnFile } from './ownFile';

const KEY_BYTES = 32;
const HEADER = 'apiwb signing key v1\n';
const KEY_TEXT = /^apiwb signing key v1\n([0-9a-f]{64})\n$/;
const FILE_BYTES = HEADER.length + KEY_BYTES * 2 + 1;

/** The key a key file's bytes hold, when they are exactly what `userKey` writes. */
function keyIn(bytes: Buffer): Buffer | undefined {
  const hex = bytes.length === FILE_BYTES ? KEY_TEXT.exec(bytes.toString('latin1'))?.[1] : undefined;
  return hex === undefined ? undefined : Buffer.from(hex, 'hex');
}

/** What a signature is for: each use of the key has its own. */
export type SignaturePurpose = 'apiwb code cache v1' | 'apiwb resume record v1';

export type UserKey = { readonly ok: true; readonly key: Buffer } | { readonly ok: false; readonly reason: string };

/**
 * This user's signing key from `file`, made (exclusively, 0600) when there is none or it holds an earlier
 * release's raw key; why not when it is not this user's alone or cannot be made.
 */
export function userKey(file: string): UserKey {
  const read = readOwnFile(file, FILE_BYTES);
  // The raw key of an earlier release (32 bytes, no header) signs nothing apiwb takes now: a new key replaces it.
  const earlier = read.ok && read.bytes.length === KEY_BYTES;
  if (read.ok && !earlier) return taken(read.bytes, `${file} is not a key apiwb made (nothing is signed with it; remove it, and apiwb makes a new one)`);
  if (!read.ok && !read.missing) return { ok: false, reason: `${file} is not taken: ${read.reason}` };
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeOwnFile(file, `${HEADER}${randomBytes(KEY_BYTES).toString('hex')}\n`);
  } catch (error) {
    return { ok: false, reason: `${file} cannot be made (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const made = readOwnFile(file, FILE_BYTES);
  return taken(made.ok ? made.bytes : Buffer.alloc(0), `${file} cannot be read back`);
}

/** The key `bytes` hold, or `refusal`. */
function taken(bytes: Buffer, refusal: string): UserKey {
  const key = keyIn(bytes);
  return key ? { ok: true, key } : { ok: false, reason: refusal };
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
