// `apiwb run … --all-pages --out F`: the walk's checkpoint lives beside F, in F.apiwb-resume.json, rewritten
// after every page kept. It holds no secret (the walker's checkpoint drops credential headers, URL user
// info and secret query values; request and page fingerprints are hashes) — the resumed run prepares
// the request again from the environment. `--resume` reopens F at the checkpoint's length (a torn page is
// cut off), continues the walk and appends; a complete run removes the file.
//
// The record is untrusted input when it is read back: it is written and read only as the product's own
// file (src/core/files/ownFile.ts: made exclusively, never through a link, this user's, no one else's to
// write), and it is taken only for the output file it was written beside (its real path), at a length
// within that file, on a row's end, after the very row it saw last (`tail`), counting no more rows than
// those bytes hold. What it may say about the request is the walker's rule (src/core/paging/resumeCheck.ts).
// Those checks cannot see a count the file cannot contradict (a cut walk said finished with 0 rows), so
// the record is signed too: its exact JSON text, then a last field `signature`, this user's key's
// (src/core/files/userKey.ts, its file in the per-user config folder: ./userKeyFile.ts) over that text. A record whose signature
// is missing or does not verify was changed since apiwb wrote it, or written by another user or another
// copy of apiwb, and is refused before anything in it is read; without a key no record is taken.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { lineBreaksIn } from '../core/files/lineBreaks';
import type { KeptPlace } from '../core/files/outputs';
import { readOwnFile, writeOwnFile } from '../core/files/ownFile';
import { signFor, userKey, verifiedFor, type UserKey } from '../core/files/userKey';
import { parseCheckpoint, type WalkCheckpoint } from '../core/paging/checkpoint';
import { faultText } from '../core/text/faultText';
import { userKeyFile } from './userKeyFile';

export interface ResumeRecord {
  readonly version: 1;
  /** The .http file (absolute path) and the request's index in it; `where` is its `file:line` as printed. */
  readonly file: string;
  readonly where: string;
  readonly requestIndex: number;
  readonly checkpoint: WalkCheckpoint;
  /** The real path of the output file the walk wrote: a record is good for that file only. */
  readonly out?: string;
  /** A hash of the last row kept (the bytes from the row break before it to the checkpoint's length). */
  readonly tail?: string;
  /** A hash of the walked request's block as written (runResume.ts: requestFingerprint). */
  readonly fingerprint?: string;
  /**
   * Every request of the run before the walked one, in order, as the run that wrote the record finished it:
   * a --resume skips exactly these, each only while its block is written the same way, and their rows
   * count with the walk's against the file's.
   */
  readonly completed?: readonly CompletedRequest[];
}

/** A request a run finished before the walk its record continues: where and how it was written, the rows it left in --out, whether it passed. */
export interface CompletedRequest {
  readonly file: string;
  readonly where: string;
  readonly requestIndex: number;
  readonly fingerprint: string;
  readonly rows: number;
  readonly ok: boolean;
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** The record's list of requests finished before its walk, or undefined when it holds anything else. */
function completedOf(value: unknown): CompletedRequest[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list: CompletedRequest[] = [];
  for (const entry of value as unknown[]) {
    const e = entry as Partial<CompletedRequest> | null;
    if (!e || typeof e.file !== 'string' || typeof e.where !== 'string' || !isCount(e.requestIndex) || typeof e.fingerprint !== 'string' || !isCount(e.rows) || typeof e.ok !== 'boolean') return undefined;
    list.push({ file: e.file, where: e.where, requestIndex: e.requestIndex, fingerprint: e.fingerprint, rows: e.rows, ok: e.ok });
  }
  return list;
}

/** Bytes of the row before a position that `tail` hashes, at most (a longer row: its end). */
const TAIL_BYTES = 64 * 1024;
/** A record is a few hundred bytes; anything much larger was not written by apiwb. */
const RECORD_MAX_BYTES = 1024 * 1024;

/** Every resume record: named after its --out, with this end (src/cli/keptPlaces.ts keeps them from other outputs). */
export const RESUME_RECORDS: KeptPlace = { role: 'a resume record of apiwb', nameEnd: '.apiwb-resume.json' };

export function resumePathFor(out: string): string {
  return `${out}.apiwb-resume.json`;
}

/** The real path of `out`, or its absolute path when it is not there (yet). */
function realOut(out: string): string {
  try {
    return realpathSync(out);
  } catch {
    return resolve(out);
  }
}

/** This user's key for records (./userKeyFile.ts; the code cache signs with it too, for its own purpose), or why there is none. */
export function resumeKey(): UserKey {
  const file = userKeyFile();
  return file ? userKey(file) : { ok: false, reason: 'there is no per-user config folder to keep it in' };
}

const PURPOSE = 'apiwb resume record v1';
/** The signed text's end: the JSON object's last field. */
const SIGNED = /^(\{[\s\S]*),"signature":"([A-Za-z0-9+/]{43}=)"\}\n?$/;

/** The record's file text: its JSON, then (with a key) its signature over that text as the last field. */
export function signedRecordText(body: string, key: Buffer | undefined): string {
  return key ? `${body.slice(0, -1)},"signature":"${signFor(key, PURPOSE, Buffer.from(body, 'utf8')).toString('base64')}"}\n` : `${body}\n`;
}

/**
 * The JSON text the signature in `bytes` covers, when it is `key`'s; undefined when there is none or it does
 * not verify. Matched on the bytes as they are (Latin-1 keeps each byte), so the text checked is the one signed.
 */
function signedBody(bytes: Buffer, key: Buffer): Buffer | undefined {
  const signed = SIGNED.exec(bytes.toString('latin1'));
  if (!signed) return undefined;
  const body = Buffer.from(`${signed[1]!}}`, 'latin1');
  return verifiedFor(key, PURPOSE, Buffer.from(signed[2]!, 'base64'), body) ? body : undefined;
}

/**
 * Written atomically (an exclusive temp file + rename), so a crash mid-write leaves the previous checkpoint;
 * signed with `key` (without one it is written unsigned, and no --resume takes it).
 */
export function writeResumeRecord(out: string, record: ResumeRecord, key: UserKey): void {
  const bytes = record.checkpoint.sink?.bytes ?? 0;
  const tail = tailHash(out, bytes);
  writeOwnFile(resumePathFor(out), signedRecordText(JSON.stringify({ ...record, out: realOut(out), ...(tail ? { tail } : {}) }), key.ok ? key.key : undefined));
}

export function removeResumeRecord(out: string): void {
  rmSync(resumePathFor(out), { force: true });
}

/**
 * The record beside `out`, signed with `key`, or why there is none to resume from (thrown, in words). Its
 * content is checked by resumeRecordRefusal and runResume.ts.
 */
export function readResumeRecord(out: string, key: UserKey): ResumeRecord {
  const path = resumePathFor(out);
  const read = readOwnFile(path, RECORD_MAX_BYTES);
  if (!read.ok) {
    throw new Error(read.missing
      ? `--resume: no checkpoint beside ${out} (${path}); the last walk into it was complete or never started`
      : `--resume: ${path} is not taken: ${read.reason}. Remove it and run again without --resume`);
  }
  if (!key.ok) throw new Error(`--resume: ${path} is not taken: apiwb has no signing key of this user's to check it with (${key.reason}). Nothing was sent; run again without --resume to start the walk over`);
  const body = signedBody(read.bytes, key.key);
  if (!body) throw new Error(`--resume: ${path} is not taken: it is not signed with this user's key, so it was changed since apiwb wrote it, or written by another user or another copy of apiwb. Nothing was sent; run again without --resume to start the walk over`);
  let value: Partial<ResumeRecord>;
  try {
    value = JSON.parse(body.toString('utf8')) as Partial<ResumeRecord>;
  } catch (error) {
    throw new Error(`--resume: ${path} is not readable JSON (${faultText(error)})`);
  }
  if (!value || value.version !== 1 || typeof value.file !== 'string' || typeof value.where !== 'string' || !Number.isSafeInteger(value.requestIndex) || (value.requestIndex ?? -1) < 0) {
    throw new Error(`--resume: ${path} is not an apiwb checkpoint`);
  }
  if ((value.out !== undefined && typeof value.out !== 'string') || (value.tail !== undefined && typeof value.tail !== 'string')) throw new Error(`--resume: ${path} is not an apiwb checkpoint`);
  // What proves which requests before the walk were finished: without it nothing before the walk may be skipped.
  const completed = completedOf(value.completed);
  if (typeof value.fingerprint !== 'string' || !completed) throw new Error(`--resume: ${path} does not say which requests before its walk were finished (written by an older apiwb, or edited): nothing was sent; run again without --resume to start over`);
  try {
    return { version: 1, file: value.file, where: value.where, requestIndex: value.requestIndex!, checkpoint: parseCheckpoint(value.checkpoint), ...(value.out ? { out: value.out } : {}), ...(value.tail ? { tail: value.tail } : {}), fingerprint: value.fingerprint, completed };
  } catch (error) {
    throw new Error(`--resume: ${path}: ${faultText(error)}`);
  }
}

/**
 * Why `record` cannot continue into `out`, or undefined: written for another file, a length past the
 * file's end or not at a row's end, or another last row than the one it saw.
 */
export function resumeRecordRefusal(record: ResumeRecord, out: string): string | undefined {
  const sink = record.checkpoint.sink;
  if (!sink) return 'it does not say how much of the file is kept';
  const real = realOut(out);
  if (record.out !== real || realOut(sink.path) !== real) return `it was written for another output file (${record.out ?? sink.path}), not ${real}`;
  const bytes = sink.bytes;
  if (!Number.isSafeInteger(bytes) || bytes < 0) return `its file length ${JSON.stringify(bytes)} is not a count (a whole number from 0)`;
  let fd: number;
  try {
    fd = openSync(out, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    return `${out} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  try {
    const size = fstatSync(fd).size;
    if (bytes > size) return `it says ${bytes} bytes were written, but ${out} holds ${size}`;
    if (bytes === 0 && record.tail !== undefined) return 'it names a last row, but its file length is 0';
    if (bytes > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, bytes - 1);
      if (last[0] !== 0x0a) return `its file length ${bytes} is not at the end of a row of ${out}`;
      if (record.tail !== tailHash(out, bytes)) return `the row before byte ${bytes} of ${out} is not the row it saw last: the file changed since`;
    }
    // Never more rows than the kept bytes hold, the walk's and those of the requests finished before it: a
    // count raised, a length cut to 0, or a request said finished that left no rows there, is not the run's.
    const held = rowsIn(fd, bytes, sink.format);
    const before = (record.completed ?? []).reduce((sum, c) => sum + c.rows, 0);
    const counted = record.checkpoint.rows + before;
    if (counted <= held) return undefined;
    return before === 0 ? `it counts ${record.checkpoint.rows} rows kept, but the first ${bytes} bytes of ${out} hold ${held}` : `it counts ${record.checkpoint.rows} rows kept by its walk and ${before} by the requests finished before it, but the first ${bytes} bytes of ${out} hold ${held}`;
  } finally {
    closeSync(fd);
  }
}

/** The most rows the first `bytes` of the file can hold: an NDJSON row is one line, a CSV row at least one after its header. */
function rowsIn(fd: number, bytes: number, format: 'ndjson' | 'csv'): number {
  const breaks = lineBreaksIn(fd, bytes);
  return format === 'csv' ? Math.max(0, breaks - 1) : breaks;
}

/** A hash of the row that ends at `bytes` in `path` (its last TAIL_BYTES at most); undefined at 0 or when unreadable. */
function tailHash(path: string, bytes: number): string | undefined {
  if (!(bytes > 0)) return undefined;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const start = Math.max(0, bytes - TAIL_BYTES);
    const buffer = Buffer.alloc(bytes - start);
    let at = 0;
    while (at < buffer.length) {
      const n = readSync(fd, buffer, at, buffer.length - at, start + at);
      if (n === 0) break;
      at += n;
    }
    // The row: after the row break before the final one (a CSV row ends in \r\n, an NDJSON row in \n).
    const previous = at >= 2 ? buffer.lastIndexOf(0x0a, at - 2) : -1;
    return createHash('sha256').update(buffer.subarray(previous + 1, at)).digest('base64');
  } finally {
    closeSync(fd);
  }
}
