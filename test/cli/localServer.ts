// Test helpers: a server on 127.0.0.1 (port 0) for `apiwb run` in process, with a temporary folder holding
// an env file whose `local` environment's `base` is the server's URL (`--env local --env-file envFile`);
// and a server that records every request it receives (method, URL, headers, body) before it answers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalServer {
  /** The server's base URL (http://127.0.0.1:port). */
  readonly origin: string;
  /** The temporary folder: the env file is in it, and test files may be. */
  readonly dir: string;
  readonly envFile: string;
  /** Stops the server and removes the folder. */
  close(): Promise<void>;
}

export async function startLocalServer(prefix: string, handler: RequestListener): Promise<LocalServer> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const envFile = join(dir, 'http-client.env.json');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(envFile, JSON.stringify({ local: { base: origin } }));
  return {
    origin,
    dir,
    envFile,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A loopback port with nothing listening (taken, then freed): a request to it meets a refused connection. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A request as a recording server received it. */
export interface Seen { readonly method: string; readonly url: string; readonly headers: IncomingMessage['headers']; readonly body: string }

/** A server that adds each request to `log`, its body read whole, then lets `answer` reply. */
export function recorder(log: Seen[], answer: (req: IncomingMessage, res: ServerResponse, body: string) => void): Server {
  return createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => {
      log.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res, body);
    });
  });
}

/** Listens on a free port of `host` (127.0.0.1 or ::1); returns the server's base URL. */
export async function listenBase(server: Server, host: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`;
}

export function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}
