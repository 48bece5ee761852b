// A test's own HTTP server on 127.0.0.1 port 0 with a temp folder beside it, both gone after the suite
// (its connections closed, the client's kept-alive sockets too).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeHttpAgents } from '../../src/core/http/client';

export interface Loopback {
  readonly origin: string;
  readonly dir: string;
  close(): Promise<void>;
}

export async function startLoopback(prefix: string, handler: RequestListener): Promise<Loopback> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dir,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await closeHttpAgents();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
