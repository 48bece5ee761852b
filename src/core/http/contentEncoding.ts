// A body the server compressed (Content-Encoding gzip, deflate or br) is read decompressed, as REST
// Client, httpYac, Postman and `curl --compressed` show it. The product asks for no encoding (it sends
// no Accept-Encoding), so a compressed body is one a server chose to send anyway; read raw, it was
// "not valid JSON" to every reader of rows. The body-size limit counts the decoded bytes (client.ts), so
// a small body that inflates without end is cut off like any large one. An empty body stays empty (a
// HEAD, a 204 or a 304 carries the coding header of the body it does not have). Any other coding is left
// as it came (identity, or one this product cannot read: its readers then say the body is not what they expect).
import { PassThrough, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type BrotliDecompress, type Gunzip, type Inflate } from 'node:zlib';

type Decoder = Gunzip | Inflate | BrotliDecompress;

const DECODERS: Readonly<Record<string, () => Decoder>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

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
   * The decoded bytes. A coding that fails ends them with its error; a body cut short (its connection
   * dropped, its deadline) ends them after all that the bytes received decode to, and `cut` says why.
   */
  readonly stream: Readable;
  /** How many bytes of the coded body have arrived: none means there was no body to decode. */
  readonly codedBytes: () => number;
  /** What cut the coded body short, once the bytes decoded from it have all been handed on; else undefined. */
  readonly cut: () => unknown;
}

/**
 * `body` decoded: the last coding applied is undone first. When the body is cut short, each decoder in
 * turn is flushed and its output handed on, so every byte the received part decodes to is read (a cut
 * body keeps the rows fully received, as an uncoded one does), and then the decoded bytes end.
 */
export function decodedBody(body: Readable, codings: readonly string[]): DecodedBody {
  const decoders = [...codings].reverse().map((c) => DECODERS[c]!());
  const out = new PassThrough();
  let coded = 0;
  let cut: unknown;
  let cutting = false;
  body.on('data', (chunk: Buffer) => { coded += chunk.length; });
  let from: Readable = body;
  for (const to of [...decoders, out]) from = from.pipe(to);
  const stop = (): void => {
    for (const d of decoders) d.destroy();
    body.destroy();
  };
  // A coding that fails (or the reader that lets go before the end) ends everything.
  for (const d of decoders) d.on('error', (error) => out.destroy(error));
  out.on('close', () => {
    if (!out.readableEnded) stop();
  });
  const cutShort = (error: unknown): void => {
    if (cutting) return;
    cutting = true;
    body.unpipe(decoders[0]);
    void flushedInTurn(decoders).then(() => {
      cut = error;
      if (!out.destroyed) out.end();
    }, (fault: unknown) => out.destroy(fault instanceof Error ? fault : new Error(String(fault))));
  };
  body.on('error', cutShort);
  body.on('close', () => {
    if (!body.readableEnded) cutShort(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  });
  return { stream: out, codedBytes: () => coded, cut: () => cut };
}

/** Each decoder flushed, first to last, and what it gave handed on to the next (or to the reader) before the next flushes. */
async function flushedInTurn(decoders: readonly Decoder[]): Promise<void> {
  for (const d of decoders) {
    if (d.destroyed) throw new Error('the decoder was closed');
    await new Promise<void>((resolve) => d.flush(() => resolve()));
    await handedOn(d);
  }
}

/** Once `d` holds no decoded bytes not handed on (its pipe passes them on as the next takes them). */
function handedOn(d: Decoder): Promise<void> {
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
