// The history of sent requests, per workspace: an index (newest first) and response bodies stored once
// each under their content hash, so re-sending the same request does not store its answer twice.
// Rules, in the order they apply to every record:
//   1. Redact first (request, headers, bodies, source text line by line, fault message) with the caller's Redactor;
//      nothing unredacted is ever handed to the file port.
//   2. Cut a body beyond `maxBodyChars` and say so in the entry (never a silent cut).
//   3. Bound the history: at most `maxEntries`, and at most `maxTotalBytes` of index plus bodies; the
//      oldest entries go first, then bodies no entry refers to.
//   4. A body file is trusted only while its content is what its name (its hash) says: read back, a body
//      that is not is refused (not shown, said in the entry's body note); stored, it is written anew.
// Writes are serialised (one chain), so two sends finishing together cannot lose each other's entry.
import { createHash, randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse } from '../http/types';
import { redactRequestBlocks } from '../collections/requestBlocks';
import type { HttpFile } from '../httpfile';
import type { Redactor } from '../secrets';
import { HistoryEntrySchema, HistoryIndexSchema, type HistoryEntry, type WalkVerdictKind } from './model';
import { twinOrder } from './requestNow';

/** Where the history lives: a flat directory of text files (see directoryHistoryFiles for Node). */
export interface HistoryFiles {
  read(name: string): Promise<string | undefined>;
  /** Replaces the file whole (write then rename), so a crash never leaves half an index. */
  write(name: string, text: string): Promise<void>;
  remove(name: string): Promise<void>;
  list(): Promise<readonly string[]>;
  /** Bytes of a file, without reading it; undefined when it does not exist. */
  size(name: string): Promise<number | undefined>;
}

export interface HistoryLimits {
  readonly maxEntries: number;
  readonly maxTotalBytes: number;
  readonly maxBodyChars: number;
  readonly maxRequestBodyChars: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  maxEntries: 200,
  maxTotalBytes: 50 * 1024 * 1024,
  maxBodyChars: 2 * 1024 * 1024,
  maxRequestBodyChars: 64 * 1024,
};

export interface HistoryRecord {
  /** The request as sent (credentials included): redacted here before anything is written. */
  readonly request: HttpRequest;
  readonly name?: string;
  readonly origin?: { readonly file: string; readonly index: number };
  /** The file the request was sent from, as it was then: which of its requests written alike it is (requestNow.ts). */
  readonly sentFrom?: HttpFile;
  /** The request block as written, variables unexpanded. */
  readonly source?: string;
  readonly environment?: string;
  readonly operationId?: string;
  readonly response?: HttpResponse;
  readonly fault?: string;
  readonly business?: { readonly failed: boolean; readonly codes?: readonly number[]; readonly summary?: string };
  readonly walk?: { readonly verdict: WalkVerdictKind; readonly reason?: string; readonly pages: number; readonly rows: number; readonly file?: string; readonly style?: string };
  readonly driftFindings?: number;
}

/** A stored response as the results panel needs it: redacted, from disk, no network. */
export interface StoredExchange {
  readonly entry: HistoryEntry;
  readonly response?: HttpResponse;
  /** Why the stored body is not given (changed on disk since it was stored); also the entry's body note. */
  readonly bodyRefused?: string;
}

/** What is said of a body file whose content is not the one stored under its name. */
export const CHANGED_BODY = 'the body file was changed after it was stored (its content is not the one stored under its name): not shown';

const bodyName = (text: string): string => `${createHash('sha256').update(text).digest('hex')}.body`;

const INDEX = 'index.json';

export class HistoryStore {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly limits: HistoryLimits;

  constructor(
    private readonly files: HistoryFiles,
    private readonly redactor: () => Redactor | Promise<Redactor>,
    limits: Partial<HistoryLimits> = {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.limits = { ...DEFAULT_HISTORY_LIMITS, ...limits };
  }

  /** Entries newest first. Entries the file holds that do not validate are left out (and dropped on the next write). */
  list(): Promise<HistoryEntry[]> {
    return this.serial(() => this.readIndex());
  }

  async get(id: string): Promise<HistoryEntry | undefined> {
    return (await this.list()).find((e) => e.id === id);
  }

  /** The entry with its response rebuilt from disk; the body is the stored (redacted, maybe cut) text. */
  async exchange(id: string): Promise<StoredExchange | undefined> {
    const entry = await this.get(id);
    if (!entry) return undefined;
    const r = entry.response;
    if (!r) return { entry };
    const stored = r.bodyFile ? await this.files.read(r.bodyFile) : undefined;
    const refused = stored !== undefined && bodyName(stored) !== r.bodyFile;
    const bodyText = refused ? '' : (stored ?? '');
    const response: HttpResponse = {
      status: r.status,
      statusText: r.statusText,
      headers: r.headers,
      bodyText,
      timing: { startedAt: Date.parse(entry.time) || 0, firstByteMs: r.firstByteMs, totalMs: r.totalMs },
      sizeBytes: r.sizeBytes,
    };
    if (!refused) return { entry, response };
    const note = [r.bodyNote, CHANGED_BODY].filter(Boolean).join('; ');
    return { entry: { ...entry, response: { ...r, bodyNote: note } }, response, bodyRefused: CHANGED_BODY };
  }

  record(record: HistoryRecord): Promise<HistoryEntry> {
    return this.serial(async () => {
      const redactor = await this.redactor();
      const entry = await this.build(record, redactor);
      const entries = [entry, ...(await this.readIndex())];
      await this.writeBounded(entries);
      return entry;
    });
  }

  async remove(id: string): Promise<void> {
    await this.serial(async () => this.writeBounded((await this.readIndex()).filter((e) => e.id !== id)));
  }

  /** Removes every entry and every body file. */
  async clear(): Promise<void> {
    await this.serial(async () => {
      for (const name of await this.files.list()) if (name.endsWith('.body')) await this.files.remove(name);
      await this.files.write(INDEX, serialise([]));
    });
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const next = this.chain.then(job, job);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async build(record: HistoryRecord, redactor: Redactor): Promise<HistoryEntry> {
    const request = redactor.request(record.request);
    const requestBody = request.body === undefined ? undefined : cut(request.body, this.limits.maxRequestBodyChars);
    const name = record.name ? redactor.text(record.name) : undefined;
    const source = record.source ? redactRequestBlocks(record.source, redactor) : undefined;
    const entry: HistoryEntry = {
      id: randomUUID(),
      time: this.now().toISOString(),
      ...(name !== undefined ? { name } : {}),
      ...(record.origin ? { origin: origin(record, name, source) } : {}),
      ...(source !== undefined ? { source } : {}),
      ...(record.environment ? { environment: record.environment } : {}),
      ...(record.operationId ? { operationId: record.operationId } : {}),
      request: {
        method: request.method,
        url: request.url,
        headers: { ...request.headers },
        ...(requestBody ? { body: requestBody.text } : {}),
        ...(requestBody?.note ? { bodyNote: requestBody.note } : {}),
      },
      ...(record.fault ? { fault: redactor.text(record.fault) } : {}),
      business: record.business
        ? {
            verdict: record.business.failed ? 'failed' : 'ok',
            ...(record.business.codes?.length ? { codes: [...record.business.codes] } : {}),
            ...(record.business.summary ? { summary: redactor.text(record.business.summary) } : {}),
          }
        : { verdict: 'none' },
      ...(record.walk
        ? { walk: { ...record.walk, ...(record.walk.reason ? { reason: redactor.text(record.walk.reason) } : {}) } }
        : {}),
      ...(record.driftFindings !== undefined ? { driftFindings: record.driftFindings } : {}),
    };
    if (record.response) {
      const response = redactor.response(record.response);
      const body = cut(response.bodyText, this.limits.maxBodyChars);
      const bodyFile = body.text === '' ? undefined : await this.storeBody(body.text);
      return {
        ...entry,
        response: {
          status: response.status,
          statusText: response.statusText,
          headers: { ...response.headers },
          totalMs: response.timing.totalMs,
          firstByteMs: response.timing.firstByteMs,
          sizeBytes: response.sizeBytes,
          ...(bodyFile ? { bodyFile } : {}),
          storedChars: body.text.length,
          ...(body.note ? { bodyNote: body.note } : {}),
        },
      };
    }
    return entry;
  }

  /** Stores a body once: its name is its hash, so an identical body is already there — unless that file was changed: then it is written anew. */
  private async storeBody(text: string): Promise<string> {
    const name = bodyName(text);
    const size = await this.files.size(name);
    if (size !== byteLength(text) || (await this.files.read(name)) !== text) await this.files.write(name, text);
    return name;
  }

  private async readIndex(): Promise<HistoryEntry[]> {
    const text = await this.files.read(INDEX);
    if (text === undefined) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return [];
    }
    const index = HistoryIndexSchema.safeParse(parsed);
    if (!index.success) return [];
    return index.data.entries.flatMap((raw) => {
      const entry = HistoryEntrySchema.safeParse(raw);
      return entry.success ? [entry.data] : [];
    });
  }

  /** Keeps the newest entries that fit both bounds, writes the index, then drops unreferenced bodies. */
  private async writeBounded(entries: HistoryEntry[]): Promise<void> {
    const bodyNames = (await this.files.list()).filter((n) => n.endsWith('.body'));
    const bodySizes = new Map<string, number>();
    for (const name of bodyNames) bodySizes.set(name, (await this.files.size(name)) ?? 0);
    const kept: HistoryEntry[] = [];
    const counted = new Set<string>();
    let total = 0;
    for (const entry of entries.slice(0, this.limits.maxEntries)) {
      const file = entry.response?.bodyFile;
      const bodyCost = file && !counted.has(file) ? (bodySizes.get(file) ?? 0) : 0;
      const cost = byteLength(JSON.stringify(entry)) + bodyCost;
      // The newest entry is always kept (its body is already cut to maxBodyChars).
      if (kept.length > 0 && total + cost > this.limits.maxTotalBytes) break;
      total += cost;
      kept.push(entry);
      if (file) counted.add(file);
    }
    await this.files.write(INDEX, serialise(kept));
    for (const name of bodyNames) if (!counted.has(name)) await this.files.remove(name);
  }
}

function serialise(entries: readonly HistoryEntry[]): string {
  return JSON.stringify({ version: 1, entries }, null, 1);
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function cut(text: string, limit: number): { text: string; note?: string } {
  if (text.length <= limit) return { text };
  return { text: text.slice(0, limit), note: `Kept the first ${limit} of ${text.length} characters; the rest was not stored.` };
}

/** Where an entry's request was: its place then, and which twin it was, told as the entry will read (redacted). */
function origin(record: HistoryRecord, name: string | undefined, source: string | undefined): NonNullable<HistoryEntry['origin']> {
  const { file, index } = record.origin!;
  const twin = record.sentFrom ? twinOrder(record.sentFrom, { origin: { file, index }, ...(name !== undefined ? { name } : {}), ...(source !== undefined ? { source } : {}) }) : undefined;
  return { file, index, ...(twin !== undefined ? { twin } : {}) };
}
