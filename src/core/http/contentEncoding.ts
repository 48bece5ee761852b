// A body the server compressed (Content-Encoding gzip, deflate (zlib-headed or raw) or br) is read
// decompressed, as REST Client, httpYac, Postman and `curl --compressed` show it. The product asks for no
// encoding (it sends no Accept-Encoding), so a compressed body is one a server chose to send anyway; read
// raw, it was "not valid JSON" to every reader of rows. The body-size limit counts the decoded bytes (client.ts), so
// a small body that inflates without end is cut off like any large one. An empty body stays empty (a
// HEAD, a 204 or a 304 carries the coding header of the body it does not have). Any other coding is left
// as it came (identity, or one this product cannot read: its readers then say the body is not what they expect).
import { PassThrough, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type BrotliDecompress, type Gunzip, type Inflate, type InflateRaw } from 'node:zlib';

type Decoder = Gunzip | Inflate | InflateRaw | BrotliDecompress;

const DECODERS: Readonly<Record<string, () => Decoder>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Whether a deflate body's first bytes are a zlib header (RFC 1950: method 8, a window of at most 32 KiB,
 * its check bits). A body without one is raw deflate (RFC 1951), which some servers send as `deflate`
 * and curl reads: it is read with inflateRaw.
 */
function zlibHeaded(first: Buffer): boolean {
  if (first.length < 2) return true;
  const cmf = first[0]!;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | first[1]!) % 31 === 0;
}

/**
 * The most codings one body may carry (curl's limit): each is a decoder in a chain, and a chain of
 * thousands is work and memory a server chooses for the client. A body with more is refused, in words.
 */
export const MAX_CODINGS = 5;

/** Why a body with these codings is not read, or undefined. */
export function codingsRefusal(codings: readonly string[] | undefined): string | undefined {
  return codings && codings.length > MAX_CODINGS
    ? `the response body is compressed ${codings.length} times over (Content-Encoding lists ${codings.length} codings); at most ${MAX_CODINGS} are decoded, so it is not read.`
    : undefined;
}

/**
 * The codings of a Content-Encoding header to undo, in the order they were applied ("gzip, br": gzip
 * first); undefined when there is nothing this product decodes (absent, identity, or any unknown coding
 * in the list: a partial decode would be neither the sent nor the meant bytes).
 */
export function decodableCodings(contentEncoding: string | undefined): string[] | undefined {
  if (contentEncoding === undefined) return undefined;
  const codings = contentEncoding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0 || codings.some((c) => DECODERS[c] === undefined)) return undefined;
  return codings;
}

export interface DecodedBody {
  /**
   * The decoded bytes. A body cut short (its connection dropped, its deadline) or a coding that fails
   * ends them after all that the bytes received decode to, and `cut` says why.
   */
  readonly stream: Readable;
  /** How many bytes of the coded body have arrived: none means there was no body to decode. */
  readonly codedBytes: () => number;
  /** What cut the coded body short, or the coding's fault (asked once the decoded bytes have ended); else undefined. */
  readonly cut: () => unknown;
}

/**
 * How many of the last bytes of a decoder's input are held back and written apart. Node's zlib drops the
 * output of a write that fails: a coding that fails at its end (a wrong CRC-32 or Adler-32, bytes after a
 * gzip member) fails in a write of the trailer or of the last bytes alone, which decode to nothing, so
 * the rows before the fault are read. 16 covers gzip's trailer (8) and a few bytes after it.
 */
const TAIL = 16;
/**
 * Where the held bytes are cut into writes, counted back from their end: gzip's trailer (8) and zlib's
 * (4) each start a write, and the last bytes come one or two a write. Five writes, not sixteen: each
 * write is a turn of the thread pool (a small compressed response paid ~0.5 ms for sixteen).
 */
const CUTS = [8, 4, 2, 1, 0];

/** A write that releases the held tail, in order after every write before it (zlib's flush does the same). */
const RELEASE = Buffer.alloc(0);

/** Its input as it came, but the last TAIL bytes held back, and written in the CUTS' pieces at the end (or at `released`). */
class TailWrittenApart extends Transform {
  private held = Buffer.alloc(0);
  private started = false;

  /** `starts`: told the first bytes (all there are, or more than TAIL) before any is handed on. */
  constructor(private readonly starts?: (first: Buffer) => void) {
    super();
  }

  /** `bytes` handed on, the first ones told to `starts` before. */
  private pushOn(bytes: Buffer, first: Buffer): void {
    if (!this.started) {
      this.started = true;
      this.starts?.(first);
    }
    this.push(bytes);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk === RELEASE) {
      this.release();
      done();
      return;
    }
    const all = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    if (all.length > TAIL) this.pushOn(all.subarray(0, all.length - TAIL), all);
    // A copy: a view would keep the whole chunk alive.
    this.held = Buffer.from(all.subarray(Math.max(0, all.length - TAIL)));
    done();
  }

  override _flush(done: TransformCallback): void {
    this.release();
    done();
  }

  /** Once the bytes held back have been handed on (in the CUTS' pieces), after the bytes written before. */
  released(): Promise<void> {
    return new Promise((resolve) => this.write(RELEASE, () => resolve()));
  }

  private release(): void {
    const { held } = this;
    let from = 0;
    for (const back of CUTS) {
      const to = Math.max(from, held.length - back);
      if (to > from) this.pushOn(held.subarray(from, to), held);
      from = to;
    }
    this.held = Buffer.alloc(0);
  }
}

/** One coding undone: its input's tail fed apart, then the decoder (deflate's chosen by its first bytes). */
interface Stage {
  readonly tail: TailWrittenApart;
  decoder: Decoder;
}

/**
 * `body` decoded: the last coding applied is undone first. When the body is cut short, or a coding
 * fails, each decoder after the cut in turn is flushed and its output handed on, so every byte decoded
 * before it is read (a cut or broken body keeps the rows fully decoded, as an uncoded one does), and
 * then the decoded bytes end (`cut` says why).
 */
export function decodedBody(body: Readable, codings: readonly string[]): DecodedBody {
  const stages: Stage[] = [...codings].reverse().map((c, i) => ({
    tail: new TailWrittenApart(c === 'deflate' ? (first) => { if (!zlibHeaded(first)) readRaw(i); } : undefined),
    decoder: DECODERS[c]!(),
  }));
  const out = new PassThrough();
  let coded = 0;
  let cut: unknown;
  let cutting = false;
  body.on('data', (chunk: Buffer) => { coded += chunk.length; });
  let from: Readable = body;
  for (const { tail, decoder } of stages) from = from.pipe(tail).pipe(decoder);
  from.pipe(out);
  const stop = (): void => {
    for (const { tail, decoder } of stages) {
      tail.destroy();
      decoder.destroy();
    }
    body.destroy();
  };
  // The reader that lets go before the end ends everything.
  out.on('close', () => {
    if (!out.readableEnded) stop();
  });
  /** The stages from `first` flushed in turn, then the decoded bytes end: `why` is what `cut` says. */
  const endAfter = (first: number, why: unknown): void => {
    if (cutting) return;
    cutting = true;
    // Said at once: a decoder may end the decoded bytes itself while the rest are flushed (a deflate
    // stream whose end was among the bytes held back), and the reader asks `cut` at their end.
    cut = why;
    void flushedInTurn(stages.slice(first)).then(() => {
      if (!out.destroyed) out.end();
    }, (fault: unknown) => out.destroy(fault instanceof Error ? fault : new Error(String(fault))));
  };
  const cutShort = (error: unknown): void => {
    body.unpipe(stages[0]!.tail);
    endAfter(0, error);
  };
  // A coding that fails: what its decoder handed on before the fault is decoded on and read, then the
  // body is let go (its rest cannot be decoded).
  const onFault = (i: number): unknown => stages[i]!.decoder.on('error', (error) => {
    const { decoder } = stages[i]!;
    const next = stages[i + 1]?.tail ?? out;
    // What it decoded and holds (its reader was slow), still readable once it failed, goes on in order.
    const rest = decoder.read() as Buffer | null;
    decoder.unpipe(next);
    if (rest) next.write(rest);
    body.unpipe(stages[0]!.tail);
    body.destroy();
    endAfter(i + 1, error);
  });
  stages.forEach((_, i) => onFault(i));
  /** Stage `i` reads raw deflate: its decoder, given no byte yet, is replaced by inflateRaw. */
  const readRaw = (i: number): void => {
    const stage = stages[i]!;
    const next = stages[i + 1]?.tail ?? out;
    stage.tail.unpipe(stage.decoder);
    stage.decoder.unpipe(next);
    stage.decoder.destroy();
    stage.decoder = createInflateRaw();
    stage.tail.pipe(stage.decoder).pipe(next);
    onFault(i);
  };
  body.on('error', cutShort);
  body.on('close', () => {
    if (!body.readableEnded) cutShort(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  });
  return { stream: out, codedBytes: () => coded, cut: () => cut };
}

/**
 * Each stage in turn, first to last: its held tail written to its decoder, the decoder flushed, and what
 * it gave handed on to the next stage (or to the reader) before the next flushes.
 */
async function flushedInTurn(stages: readonly Stage[]): Promise<void> {
  for (const stage of stages) {
    await stage.tail.released();
    await handedOn(stage.tail);
    // Read after the tail is released: its first bytes may choose the decoder (deflate: zlibHeaded).
    const { decoder } = stage;
    if (decoder.destroyed) throw new Error('the decoder was closed');
    await new Promise<void>((resolve) => decoder.flush(() => resolve()));
    await handedOn(decoder);
  }
}

/** Once `d` holds no bytes not handed on (its pipe passes them on as the next takes them). */
function handedOn(d: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (d.readableLength > 0) return;
      d.off('data', check);
      d.off('close', closed);
      resolve();
    };
    const closed = (): void => reject(new Error('the decoder was closed'));
    d.on('data', check);
    d.on('close', closed);
    check();
  });
}

/** Whether `error` is zlib's (corrupt or cut-short compressed data: Z_DATA_ERROR, Z_BUF_ERROR; brotli's ERR__…), not the connection's. */
export function isDecodingError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__'));
}
