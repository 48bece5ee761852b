// What the auth flows need from the outside world: one way to send an HTTP request and a clock.
// The CLI and the extension pass the shared undici client (src/core/http/client.ts); tests may too.
import type { HttpRequest, HttpResponse } from '../http/types';

export type SendHttp = (request: HttpRequest) => Promise<HttpResponse>;

export type Clock = () => number;
