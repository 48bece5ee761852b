// The CLI's overlap of requests (sendOrder.ts), wrapped around the HTTP port one request's exchange is
// given: the order is told when the request is handed to the HTTP client (handedOver) and when its
// response has been received whole (received, with its size; never for a read that failed, a body
// discarded or a refusal to be waited out), and the exchange's examination of the response waits for
// what `received` returns (the next request on its way). That wait is not the response's time: the port
// measures it (waitedMs), and the run takes it off the printed time.
// Also here: a request of the run made ready ahead (readyExchange, while the one before it is answered)
// and its exchange sent from there (sendReady).
import type { HttpPort, SendOptions, StreamingResponse } from '../core/http/client';
import { isRefusal } from '../core/http/serverWaits';
import type { HttpRequest, HttpResponse } from '../core/http/types';
import type { Mutable } from '../core/mutable';
import { readyExchange, runExchange, sendReady, type ExchangeInput, type ExchangePorts, type ExchangeResult, type ReadyExchange } from '../core/run/exchange';
import type { RequestHooks } from './sendOrder';

/** An exchange's input, with its request's making ready when that began earlier (readyExchange). */
export type RunInput = Mutable<ExchangeInput> & { ready?: Promise<ReadyExchange> };

/** The same input, its request being made ready from now on. */
export function readiedAhead(input: RunInput, ports: ExchangePorts): RunInput {
  const ready = readyExchange(input, ports);
  // Its exchange awaits it and hears a failure then; until then a failure is not an unhandled rejection.
  ready.catch(() => undefined);
  input.ready = ready;
  return input;
}

/** One request's exchange in a run: made ready earlier or now, its HTTP port wrapped for the overlap. */
export async function exchangeInRun(input: RunInput, runPorts: ExchangePorts, overlap: RequestHooks | undefined): Promise<{ result: ExchangeResult; waitedMs: number }> {
  const wrapped = overlap ? overlapPort(runPorts.http, overlap) : undefined;
  const ports = wrapped ? { ...runPorts, http: wrapped.http } : runPorts;
  const made = input.ready ? await input.ready : undefined;
  const result = !made ? await runExchange(input, ports) : made.ok ? await sendReady(made, input, ports) : made.result;
  return { result, waitedMs: wrapped?.waitedMs() ?? 0 };
}

/** A request's printed time: until its result was known, less the wait for the next request to go. */
export function timeInRun(response: HttpResponse, waitedMs: number): number {
  return Math.max(response.timing.firstByteMs, response.timing.totalMs - waitedMs);
}

export interface OverlapPort {
  readonly http: HttpPort;
  /** How long the examination waited on `received` (ms). */
  waitedMs(): number;
}

export function overlapPort(http: HttpPort, hooks: RequestHooks): OverlapPort {
  let handed = false;
  let told = false;
  let waited = 0;
  const handedOver = (): void => {
    if (handed) return;
    handed = true;
    hooks.handedOver();
  };
  /** Tells `received` once; resolves when what it returned has settled, that wait timed. */
  const received = async (bytes: number): Promise<void> => {
    if (told) return;
    told = true;
    // From before the call: what it does at once (the next request started) is not this response's time.
    const from = performance.now();
    const waiting = hooks.received(bytes);
    if (!waiting) return;
    await waiting;
    waited += performance.now() - from;
  };
  return {
    waitedMs: () => waited,
    http: {
      async send(request: HttpRequest, options?: SendOptions) {
        const sending = http.send(request, options);
        handedOver();
        const response = await sending;
        // A refusal to be waited out is not the answer: the run's next request must not go meanwhile.
        if (!isRefusal(response.status)) await received(response.sizeBytes);
        return response;
      },
      async stream(request: HttpRequest, options?: SendOptions) {
        const streaming = http.stream(request, options);
        handedOver();
        const response = await streaming;
        return isRefusal(response.status) ? response : toldWhenRead(response, received);
      },
    },
  };
}

/**
 * The same response, `told` its size once its body has been read to its end; not when reading it
 * failed, nor when it is discarded (a discard may cut the connection instead of reading the rest).
 */
function toldWhenRead(response: StreamingResponse, told: (bytes: number) => Promise<void>): StreamingResponse {
  return {
    status: response.status, statusText: response.statusText, headers: response.headers, startedAt: response.startedAt, firstByteMs: response.firstByteMs, redirects: response.redirects,
    read: async (each) => {
      let bytes = 0;
      await response.read((chunk) => {
        bytes += chunk.length;
        return each(chunk);
      });
      await told(bytes);
    },
    discard: () => response.discard(),
  };
}
