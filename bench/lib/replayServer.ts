// A server that answers every request with the same recorded body from memory, on 127.0.0.1 port 0:
// the fastest server this machine has, so a single-response bench measures the client, not the
// sandbox's row generator.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReplayServer {
  readonly url: (path: string) => string;
  close(): Promise<void>;
}

export async function serveBody(body: Buffer): Promise<ReplayServer> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      // 1 MB writes, each waiting for the socket to drain, as a real server streams a large body.
      let at = 0;
      const next = (): void => {
        while (at < body.length) {
          const end = Math.min(body.length, at + (1 << 20));
          const more = res.write(body.subarray(at, end));
          at = end;
          if (!more) return void res.once('drain', next);
        }
        res.end();
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
