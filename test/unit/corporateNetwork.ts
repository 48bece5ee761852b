// A company network on loopback for tests: Debian's tinyproxy (started in a temp dir on a free port,
// ready when it says it accepts connections), a test certificate authority made with openssl, servers
// with certificates it issued, and client certificates (PEM and PFX).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

export interface Pki {
  readonly dir: string;
  /** The test CA's certificate (PEM text) and its file. */
  readonly caPem: string;
  readonly caFile: string;
  /** Issues a certificate signed by the CA: files `<name>.pem` and `<name>.key` in dir. */
  issue(name: string, options: { readonly san?: string; readonly client?: boolean; readonly days?: number }): { cert: string; key: string; certFile: string; keyFile: string };
  /** `<name>.pfx` of an issued certificate, with that passphrase. */
  pfx(name: string, passphrase: string): { file: string; bytes: Buffer };
}

export function makePki(dir: string): Pki {
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=API Workbench Test Company CA', '-days', '2']);
  const caFile = join(dir, 'ca.pem');
  return {
    dir,
    caFile,
    caPem: readFileSync(caFile, 'utf8'),
    issue(name, options) {
      const ext = join(dir, `${name}.ext`);
      writeFileSync(ext, [
        options.san ? `subjectAltName=${options.san}` : '',
        `extendedKeyUsage=${options.client ? 'clientAuth' : 'serverAuth'}`,
      ].filter(Boolean).join('\n'));
      openssl(dir, ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
      openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', String(options.days ?? 1), '-extfile', ext]);
      const certFile = join(dir, `${name}.pem`);
      const keyFile = join(dir, `${name}.key`);
      return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile, keyFile };
    },
    pfx(name, passphrase) {
      openssl(dir, ['pkcs12', '-export', '-in', `${name}.pem`, '-inkey', `${name}.key`, '-out', `${name}.pfx`, '-passout', `pass:${passphrase}`]);
      const file = join(dir, `${name}.pfx`);
      return { file, bytes: readFileSync(file) };
    },
  };
}

/** A port free on 127.0.0.1 a moment ago (tinyproxy takes no port 0). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Tinyproxy {
  readonly url: string;
  readonly port: number;
  /** Everything tinyproxy logged so far (as read from its output: a line it wrote may be on its way). */
  log(): string;
  /**
   * The log's length once every line tinyproxy wrote before this call has been read: it is asked for a
   * URL of its own (a refused port) and its line awaited. A test's part of the log is what lies between
   * two of these, whatever a request before it logs late.
   */
  flushed(): Promise<number>;
  stop(): Promise<void>;
}

/** tinyproxy on 127.0.0.1, with Basic authentication when `auth` is given. */
export async function startTinyproxy(dir: string, auth?: { user: string; password: string }): Promise<Tinyproxy> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const conf = join(dir, `tinyproxy-${port}.conf`);
    writeFileSync(conf, [
      `Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'LogLevel Info', 'MaxClients 20', 'Allow 127.0.0.1',
      'DisableViaHeader Yes', ...(auth ? [`BasicAuth ${auth.user} ${auth.password}`] : []), '',
    ].join('\n'));
    const child = spawn('tinyproxy', ['-d', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const ready = await new Promise<boolean>((resolve) => {
      const onData = (chunk: Buffer): void => {
        text += chunk.toString('utf8');
        if (text.includes('Accepting connections')) resolve(true);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', () => resolve(false));
      child.once('error', () => resolve(false));
    });
    if (ready) return { url: `http://127.0.0.1:${port}`, port, log: () => text, flushed: () => flushedLog(child, port, () => text, auth), stop: () => stopChild(child) };
    await stopChild(child);
    if (!/listen|bind|address/i.test(text)) throw new Error(`tinyproxy did not start (is Debian's tinyproxy installed?): ${text}`);
  }
  throw new Error('tinyproxy found no free port in 5 attempts');
}

let marks = 0;

/** See Tinyproxy.flushed: a request for a URL of this call's own, and the log's length once its line is read. */
function flushedLog(child: ChildProcess, port: number, text: () => string, auth: { user: string; password: string } | undefined): Promise<number> {
  const mark = `/apiwb-log-mark-${process.pid}-${++marks}`;
  const credentials = auth ? `Proxy-Authorization: Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}\r\n` : '';
  return new Promise<number>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const done = (error?: Error): void => {
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(text().indexOf('\n', text().indexOf(mark)) + 1);
    };
    const check = (): void => {
      const at = text().indexOf(mark);
      if (at !== -1 && text().indexOf('\n', at) !== -1) done();
    };
    // A bound, not a wait: the line comes within milliseconds of the request.
    const timer = setTimeout(() => done(new Error(`tinyproxy did not log ${mark}: ${text().slice(-2000)}`)), 10_000);
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    socket.on('error', (error) => done(error));
    socket.write(`GET http://127.0.0.1:1${mark} HTTP/1.1\r\nHost: 127.0.0.1:1\r\n${credentials}Connection: close\r\n\r\n`);
    // Read (and drop) the answer so the proxy is never blocked writing it.
    socket.resume();
    check();
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** The client certificate's subject CN, when one was offered (TLS servers only). */
  readonly clientCertificate?: string;
}

export interface TestServer {
  readonly url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

async function listen(server: Server, scheme: 'http' | 'https', seen: SeenRequest[]): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function record(seen: SeenRequest[]) {
  return (req: IncomingMessage, res: import('node:http').ServerResponse): void => {
    const socket = req.socket as TLSSocket;
    const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
    const cn = peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : undefined;
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, ...(cn ? { clientCertificate: cn } : {}) });
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, path: req.url }));
    });
  };
}

export function httpTarget(): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  return listen(createHttpServer(record(seen)), 'http', seen);
}

export function httpsTarget(options: ServerOptions): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  return listen(createHttpsServer(options, record(seen)), 'https', seen);
}

/**
 * The company network of the proxy suites: a test CA (in a temporary folder) with a server certificate for
 * 127.0.0.1 and localhost and a client certificate `client` (ca.pem, client.pem, client.key); tinyproxy,
 * with Basic authentication when `proxyAuth` is given; a plain http server; an https server with the CA's
 * certificate; and one that also asks for a client certificate the CA issued.
 */
export interface CompanyNetwork {
  readonly dir: string;
  readonly pki: Pki;
  readonly proxy: Tinyproxy;
  readonly plain: TestServer;
  readonly secure: TestServer;
  readonly mutual: TestServer;
  /** Stops the proxy and the servers and removes the folder. */
  close(): Promise<void>;
}

export async function startCompanyNetwork(prefix: string, proxyAuth?: { user: string; password: string }): Promise<CompanyNetwork> {
  const temp = tempDir(prefix);
  const pki = makePki(temp.dir);
  const server = pki.issue('server', { san: 'IP:127.0.0.1,DNS:localhost' });
  pki.issue('client', { client: true });
  const [proxy, plain, secure, mutual] = await Promise.all([
    startTinyproxy(temp.dir, proxyAuth),
    httpTarget(),
    httpsTarget({ cert: server.cert, key: server.key }),
    httpsTarget({ cert: server.cert, key: server.key, requestCert: true, rejectUnauthorized: true, ca: pki.caPem }),
  ]);
  return {
    dir: temp.dir, pki, proxy, plain, secure, mutual,
    close: async () => {
      await Promise.all([proxy.stop(), plain.close(), secure.close(), mutual.close()]);
      temp.remove();
    },
  };
}
