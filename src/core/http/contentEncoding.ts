// A body the server compressed (Content-Encoding gzip, deflate or br) is read decompressed, as REST
// Client, httpYac, Postman and `curl --compressed` show it. The product asks for no encoding (it sends
// no Accept-Encoding), so a compressed body is one a server chose to send anyway; read raw, it was
// "not valid JSON" to every reader of rows. The body-size limit counts the decoded bytes (client.ts), so
// a small body that inflates without end is cut off like any large one. An empty body stays empty (a
// HEAD, a 204 or a 304 carries the coding header of the body it does not have). Any other coding is left
// as it came (identity, or one this product cannot read: its readers then say the body is not what they expect).
import { pipeline, type Readable } from 'node:stream';
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
  /** The decoded bytes; a fault of either side ends both (pipeline destroys the last stream with it). */
  readonly stream: Readable;
  /** How many bytes of the coded body have arrived: none means there was no body to decode. */
  readonly codedBytes: () => number;
}

/** `body` decoded: the last coding applied is undone first. */
export function decodedBody(body: Readable, codings: readonly string[]): DecodedBody {
  const decoders = [...codings].reverse().map((c) => DECODERS[c]!());
  pipeline([body, ...decoders], () => undefined);
  let coded = 0;
  body.on('data', (chunk: Buffer) => { coded += chunk.length; });
  return { stream: decoders[decoders.length - 1]!, codedBytes: () => coded };
}

/** Whether `error` is zlib's (corrupt or cut-short compressed data: Z_DATA_ERROR, Z_BUF_ERROR; brotli's ERR__…), not the connection's. */
export function isDecodingError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__'));
}
