// THE one way the product writes a file it will read back itself (resume checkpoints, history, the CLI's
// code cache) and reads it back. The rule: nothing read back is trusted beyond what wrote it. So a write
// goes to a temporary file created exclusively (O_EXCL, O_NOFOLLOW: a link or a file planted at its name
// is never written through) and is renamed over the name only once whole; a read opens without following
// a link, and takes only a regular file owned by this user that no one else may write. What the content
// means is checked by the caller's validator on top; a file that fails either is discarded, never obeyed.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, renameSync, rmSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** 0 where the platform has no such flag (Windows: no O_NOFOLLOW; links there need rights a planter lacks). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export type OwnRead = { readonly ok: true; readonly bytes: Buffer } | { readonly ok: false; readonly missing: boolean; readonly reason: string };

/**
 * Writes `content` to `path` whole or not at all: a new temporary file beside it, created exclusively and
 * never through a link (a name planted there fails the write), then renamed over `path` (a rename replaces
 * a link at `path` itself, never its target). Throws the file system's error; the temporary file is gone then.
 */
export function writeOwnFile(path: string, content: string | Buffer, mode = 0o600): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * The bytes of a file the product wrote, or why it is not taken: missing, a link, not a regular file, not
 * this user's, writable by others, or larger than `maxBytes`.
 */
export function readOwnFile(path: string, maxBytes: number): OwnRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true, reason: 'it does not exist' };
    if (code === 'ELOOP') return { ok: false, missing: false, reason: 'it is a symbolic link, and apiwb never reads its own files through one' };
    return { ok: false, missing: false, reason: `it cannot be read (${code ?? String(error)})` };
  }
  try {
    const stat = fstatSync(fd);
    const refusal = ownershipRefusal(stat) ?? (stat.size > maxBytes ? `it holds ${stat.size} bytes, more than the ${maxBytes} such a file ever has` : undefined);
    if (refusal) return { ok: false, missing: false, reason: refusal };
    const bytes = Buffer.alloc(stat.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { ok: true, bytes: bytes.subarray(0, at) };
  } finally {
    closeSync(fd);
  }
}

/** Why a file or folder (its stat, not followed) may not be trusted as this user's own, or undefined. */
export function ownershipRefusal(stat: Stats, kind: 'file' | 'folder' = 'file'): string | undefined {
  if (stat.isSymbolicLink()) return 'it is a symbolic link';
  if (kind === 'file' ? !stat.isFile() : !stat.isDirectory()) return `it is not a regular ${kind}`;
  const uid = process.getuid?.();
  // Windows has neither owners as numbers nor these mode bits: only the checks above apply there.
  if (uid === undefined || process.platform === 'win32') return undefined;
  if (stat.uid !== uid) return `it belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return 'others than its owner may write it';
  return undefined;
}
