// A walk suite's own HTTP server on 127.0.0.1 port 0 with a temp folder beside it (test/cli/localServer.ts),
// both gone after the suite, the client's kept-alive sockets too.
import type { RequestListener } from 'node:http';
import { closeHttpAgents } from '../../src/core/http/client';
import { startLocalServer } from '../cli/localServer';

export interface Loopback {
  readonly origin: string;
  readonly dir: string;
  close(): Promise<void>;
}

export async function startLoopback(prefix: string, handler: RequestListener): Promise<Loopback> {
  const local = await startLocalServer(prefix, handler);
  return {
    origin: local.origin,
    dir: local.dir,
    async close() {
      await local.close();
      await closeHttpAgents();
    },
  };
}
