// Reading a response body once, through its stream's events (one promise a body), not an async iterator
// over it (promises and listeners for every chunk, the cost of most small responses' reading): each chunk
// is handed on as it arrives (the stream paused while the handler's promise runs), within the body-size
// limit (decoded bytes: contentEncoding.ts), and the read settles only once nothing of the body is still
// being handled. Its faults are the client's (`fault`: the deadline, a body that does not decode).
import type { Dispatcher } from 'undici';
import { codingsRefusal, decodedBody, type DecodedBody } from './contentEncoding';
import { tooLargeFault } from './faults';
import { HttpFault } from './types';

/** A response's body as the client hands it to be read. */
export interface BodySource {
  readonly stream: Dispatcher.ResponseData['body'];
  readonly target: { readonly method: string; readonly url: string };
  /** Its Content-Length (NaN when none). */
  readonly declared: number;
  readonly maxBodyBytes: number;
  readonly codings: readonly string[] | undefined;
  /** Ends the response's deadline and its abort listener. */
  readonly settle: () => void;
  /** What the body's stream failed with, as the fault the caller sees (undefined: an empty body after all). */
  readonly fault: (error: unknown, decoded: DecodedBody | undefined) => HttpFault | undefined;
}

/** What an async iterator over a stream says of one closed with neither its end nor an error. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/** StreamingResponse.read for `body`: once only. */
export function bodyReader(body: BodySource): (each: (chunk: Buffer) => void | Promise<void>) => Promise<void> {
  const { stream, target, declared, maxBodyBytes, codings, settle } = body;
  const bodyFault = body.fault;
  let reading = false;
  return (each: (chunk: Buffer) => void | Promise<void>): Promise<void> => new Promise<void>((resolve, reject) => {
    if (reading) throw new Error('the body is read once');
    reading = true;
    if (Number.isFinite(declared) && declared > maxBodyBytes) {
      stream.destroy();
      settle();
      const tooLarge = tooLargeFault(target, maxBodyBytes, declared);
      reject(bodyFault(tooLarge, undefined) ?? tooLarge);
      return;
    }
    const tooMany = codingsRefusal(codings);
    if (tooMany) {
      // Its abort is reported as an error of the stream: heard here, the refusal below says why.
      stream.on('error', () => undefined);
      stream.destroy();
      settle();
      reject(new HttpFault('undecodable', `${target.method} ${target.url}: ${tooMany}`, target));
      return;
    }
    const decoded = codings ? decodedBody(stream, codings) : undefined;
    const source = decoded?.stream ?? stream;
    let seen = 0;
    let done = false;
    /** What `each` returned for the last chunk, until it settles (the stream is paused meanwhile). */
    let pending: Promise<void> | undefined;
    const finish = (error?: unknown, fromConsumer = false): void => {
      if (done) return;
      done = true;
      settle();
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      let outcome: () => void;
      if (error === undefined) {
        outcome = resolve;
      } else {
        // Keep a listener: a stream destroyed now may still report its error.
        source.on('error', () => undefined);
        if (fromConsumer) {
          source.destroy();
          stream.destroy();
          // What the caller's handler threw goes back to it as it is, whatever it is.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          reject(error);
          return;
        }
        const fault = bodyFault(error, decoded);
        outcome = fault ? () => reject(fault) : resolve;
      }
      // The stream failed (or ended: a small body's end is often in hand before its last chunk is handled)
      // while the caller still handles a chunk: the read settles once that is done, so nothing of this
      // body is still being handled when the caller hears how it ended, and a body that ended but whose
      // last chunk the caller failed on is that failure.
      // (What the caller's handler rejected with goes back to it as it is.)
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      if (pending) pending.then(outcome, (consumerError: unknown) => (error === undefined ? reject(consumerError) : outcome()));
      else outcome();
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > maxBodyBytes) {
        source.destroy();
        stream.destroy();
        finish(tooLargeFault(target, maxBodyBytes, seen));
        return;
      }
      let wait: void | Promise<void>;
      try {
        wait = each(chunk);
      } catch (error) {
        finish(error, true);
        return;
      }
      if (wait) {
        source.pause();
        pending = wait;
        wait.then(() => {
          pending = undefined;
          if (!done) source.resume();
        }, (error: unknown) => {
          pending = undefined;
          finish(error, true);
        });
      }
    };
    // A compressed body's coded data can end before the body does (bytes after a deflate stream's end):
    // it has been received, and its connection is free, only once the body itself has ended too.
    const onEnd = (): void => {
      // A compressed body cut short: every byte it decoded to has been read; now how it was cut.
      const cut = decoded?.cut();
      if (cut !== undefined) {
        finish(cut);
        return;
      }
      if (!decoded || stream.readableEnded) {
        finish();
        return;
      }
      // The decoded bytes have ended: their stream may close now; the body's own end is awaited.
      source.off('close', onClose);
      stream.once('end', () => finish());
      stream.once('error', (error: unknown) => finish(error));
      stream.once('close', () => finish(prematureClose()));
      stream.resume();
    };
    const onError = (error: unknown): void => finish(error);
    // Closed with neither its end nor an error (destroyed under it): as an async iterator would say.
    const onClose = (): void => finish(prematureClose());
    // Destroyed before this read (its deadline or an abort came first): no event will come any more.
    if (stream.destroyed || source.destroyed) {
      finish(stream.errored ?? source.errored ?? prematureClose());
      return;
    }
    source.on('error', onError);
    source.on('end', onEnd);
    source.on('close', onClose);
    source.on('data', onData);
  });
}
