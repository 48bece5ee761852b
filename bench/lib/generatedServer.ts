// A server on 127.0.0.1 port 0 that generates a large body of rows as it sends it, never holding it:
// for bodies past what one string or buffer of the bench can hold (the 1 GB export to --out). The
// shape is an array of row objects or the rows one level down ({"Data":[…]}), rows as bodyShapes.ts
// makes them; a declared length, written in 1 MB blocks that wait for the socket to drain.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { row } from './bodyShapes';
import type { ReplayServer } from './replayServer';

/** The body's blocks and its row count, worked out once (the server sends the same blocks again). */
function plan(megabytes: number, wrapped: boolean): { head: Buffer; blocks: number; block: Buffer; tail: Buffer; rows: number; bytes: number } {
  const perBlock = 4096;
  const block = Buffer.from(Array.from({ length: perBlock }, (_, i) => `${row(i)},`).join(''));
  const blocks = Math.ceil((megabytes * 1048576) / block.length);
  const head = Buffer.from(wrapped ? '{"Data":[' : '[');
  const tail = Buffer.from(`${row(perBlock)}${wrapped ? ']}' : ']'}`);
  return { head, blocks, block, tail, rows: blocks * perBlock + 1, bytes: head.length + blocks * block.length + tail.length };
}

export async function serveGenerated(megabytes: number, wrapped: boolean): Promise<ReplayServer & { readonly rows: number; readonly bytes: number }> {
  const body = plan(megabytes, wrapped);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.bytes });
      res.write(body.head);
      let sent = 0;
      const next = (): void => {
        while (sent < body.blocks) {
          sent++;
          if (!res.write(body.block)) return void res.once('drain', next);
        }
        res.end(body.tail);
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    rows: body.rows,
    bytes: body.bytes,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
