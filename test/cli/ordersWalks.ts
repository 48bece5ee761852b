// Test fixture of the tests holding a resume record to the run that wrote it: a file of two walks of the
// same text with a POST between them, and a small server answering them (each GET's page 1..3 of one row,
// the POST one row), which fails one GET when told and records every request it receives.
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { requestFingerprint } from '../../src/cli/runResume';
import { startLocalServer, type LocalServer } from './localServer';

export const ORDERS_FILE = `# @paging generic next=next_link items=items
GET {{base}}/orders

###
POST {{base}}/orders/new

###
# @paging generic next=next_link items=items
GET {{base}}/orders
`;

export interface Completed { file: string; where: string; requestIndex: number; fingerprint: string; rows: number; ok: boolean }

/** The hash a record keeps of block `i` of ORDERS_FILE as written (anyone can compute it from the file). */
export const blockHash = (i: number): string => {
  const parsed = parseHttpFile(ORDERS_FILE);
  return requestFingerprint({ parsed, block: parsed.blocks.filter((b) => b.request)[i]! });
};

export interface OrdersServer {
  readonly server: LocalServer;
  /** Every request received, `METHOD url`. */
  readonly seen: string[];
  /** The GET (counted from 1 in `gets`) answered 500, once; 0: none. */
  failGet: number;
  gets: number;
}

export async function startOrdersServer(prefix: string): Promise<OrdersServer> {
  const state = { seen: [] as string[], failGet: 0, gets: 0 };
  const server: LocalServer = await startLocalServer(prefix, (req, res) => {
    state.seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const url = new URL(req.url ?? '/', server.origin);
    if (req.method === 'GET' && ++state.gets === state.failGet) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'POST') return void res.end('{"items":[{"id":"new"}]}');
    const page = Number(url.searchParams.get('page') ?? '1');
    res.end(JSON.stringify({ items: [{ id: `p${page}` }], next_link: page < 3 ? `${server.origin}/orders?page=${page + 1}` : null }));
  });
  return Object.assign(state, { server });
}
