// Test helper: a server on 127.0.0.1 (port 0) for `apiwb run` in process, with a temporary folder holding
// an env file whose `local` environment's `base` is the server's URL (`--env local --env-file envFile`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalServer {
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
  writeFileSync(envFile, JSON.stringify({ local: { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } }));
  return {
    dir,
    envFile,
    close: async () => {
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
