// The dispatcher choice: which way a request leaves this machine. One rule for the editor and the CLI:
//   - through the proxy set for its scheme (HTTP_PROXY / HTTPS_PROXY / ALL_PROXY, --proxy, VS Code's
//     http.proxy, an env file's "Proxy"), unless NO_PROXY names its host (noProxy.ts);
//   - an https request goes through the proxy by CONNECT, so the proxy sees only the host and port,
//     never a header, URL path or body; a plain http request is handed to the proxy whole (as curl
//     does), and the first one carrying a credential is said in words;
//   - certificates are verified against the system's authorities plus the extra ones given (company CA
//     bundles), never instead of them, made when a connection first needs TLS (trust.ts);
//   - a client certificate is offered only to the hosts it is configured for.
// undici's own agents do the work (Agent, ProxyAgent); nothing here speaks the proxy protocol.
import type { Dispatcher, ProxyAgent as ProxyAgentType } from 'undici';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import { basicCredential } from '../auth/basicCredential';
import { isCredentialHeader, isSecretName } from '../secrets/vocabulary';
import { partWords, type SecretBindings } from '../secrets/bindings';
import type { HttpPort, SendOptions } from './client';
import { HttpFault, type HttpRequest } from './types';
import { Agent } from './undiciCore';
import type { NoProxyRule } from './noProxy';
import { NetworkTrust } from './trust';
import { faultText } from '../text/faultText';

/**
 * undici's ProxyAgent, loaded on the first request that goes through a proxy (a run without one does not
 * pay for its modules), and the pool to the proxy with the CONNECT call ProxyAgent asks of it: undici's
 * index.js adds that call to every dispatcher, and the client loads undici without it (undiciCore.ts).
 */
function proxyAgentModules(): { ProxyAgent: typeof ProxyAgentType; proxyPool: (origin: URL, options: object) => Dispatcher } {
  const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof ProxyAgentType;
  const Pool = require('undici/lib/dispatcher/pool.js') as new (origin: URL, options: object) => Dispatcher;
  const connect = require('undici/lib/api/api-connect.js') as (this: Dispatcher, options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  return { ProxyAgent, proxyPool: (origin, options) => Object.assign(new Pool(origin, options), { connect }) };
}

export interface ProxyEndpoint {
  /** scheme://host:port, never with user info (what is shown and logged). */
  readonly url: string;
  readonly username?: string;
  /** From SecretStorage or an environment variable only; never shown. */
  readonly password?: string;
  /** Where it was set, for messages: 'HTTPS_PROXY', '--proxy', 'http.proxy', "env file 'staging'". */
  readonly source: string;
}

export interface ClientCertificate {
  /** `host` (any port) or `host:port`; the certificate goes to these hosts and no other. */
  readonly hosts: readonly string[];
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  readonly pfx?: Buffer;
  readonly passphrase?: string;
  /** Where it was configured, for messages. */
  readonly label: string;
}

export interface NetworkSettings {
  /** For http:// targets. */
  readonly httpProxy?: ProxyEndpoint;
  /** For https:// targets. */
  readonly httpsProxy?: ProxyEndpoint;
  readonly noProxy?: NoProxyRule;
  /** Verify the certificate of an https:// proxy (VS Code's http.proxyStrictSSL). Default true. */
  readonly proxyStrictSSL?: boolean;
  /** Extra certificate authorities (PEM), trusted on top of the system's. */
  readonly extraCa?: readonly string[];
  readonly clientCertificates?: readonly ClientCertificate[];
  /** Hosts whose certificate is not verified (an env file's "verifyHostCertificate": false). */
  readonly unverifiedHosts?: readonly string[];
}

/** How one URL is reached: the proxy (none: directly), the client certificate offered, verification. */
export interface Route {
  readonly proxy?: ProxyEndpoint;
  readonly certificate?: ClientCertificate;
  readonly verify: boolean;
}

/** Does `host` or `host:port` name this URL's host (a host without a port: any port)? */
export function hostMatches(pattern: string, url: URL): boolean {
  const wanted = pattern.trim().toLowerCase();
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return wanted === host || wanted === `${host}:${port}`;
}

export function routeOf(settings: NetworkSettings, url: URL, verify = true): Route {
  const proxy = url.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  const direct = proxy === undefined || settings.noProxy?.bypasses(url) === true;
  const certificate = settings.clientCertificates?.find((c) => c.hosts.some((h) => hostMatches(h, url)));
  const unverified = settings.unverifiedHosts?.some((h) => hostMatches(h, url)) === true;
  return { ...(direct ? {} : { proxy }), ...(certificate ? { certificate } : {}), verify: verify && !unverified };
}

const KEEP_ALIVE_MS = 10_000;
const CONNECT_TIMEOUT_MS = 10_000;

function proxyAuthorization(proxy: ProxyEndpoint): string | undefined {
  if (proxy.username === undefined) return undefined;
  return `Basic ${basicCredential(proxy.username, proxy.password ?? '')}`;
}

/** Routes each request to the agent of its route; agents are made on first use and kept (keep-alive pools). */
class RoutingDispatcher extends (DispatcherBase as unknown as new () => Dispatcher) {
  private readonly agents = new Map<string, Dispatcher>();

  constructor(private readonly settings: NetworkSettings, private readonly verify: boolean, private readonly trust: NetworkTrust) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = new URL(String(options.origin));
    let agent: Dispatcher;
    try {
      agent = this.agentFor(url);
    } catch (error) {
      // Only a client certificate that does not open (a wrong passphrase, a key of another certificate) fails here.
      const target = { method: options.method, url: `${url.origin}${options.path}` };
      const label = routeOf(this.settings, url, this.verify).certificate?.label ?? 'configured';
      throw new HttpFault('tls', `${target.method} ${target.url}: the client certificate ${label} for ${url.host} cannot be used (${faultText(error)}); nothing was sent.`, target);
    }
    return agent.dispatch(options, handler);
  }

  private agentFor(url: URL): Dispatcher {
    const route = routeOf(this.settings, url, this.verify);
    const certificateIndex = route.certificate ? this.settings.clientCertificates!.indexOf(route.certificate) : -1;
    // Plain http through no proxy or a plain one has an agent of its own, without the trust material.
    const secure = url.protocol === 'https:' || route.proxy?.url.startsWith('https:') === true;
    const key = `${route.proxy?.url ?? 'direct'}|${certificateIndex}|${route.verify}|${secure}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = this.makeAgent(route, secure);
      this.agents.set(key, agent);
    }
    return agent;
  }

  private makeAgent(route: Route, secure: boolean): Dispatcher {
    const tls = secure ? this.trust.tlsOptions(route.verify, route.certificate) : {};
    if (!route.proxy) return new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { ...tls, timeout: CONNECT_TIMEOUT_MS } });
    const token = proxyAuthorization(route.proxy);
    const { ProxyAgent, proxyPool } = proxyAgentModules();
    return new ProxyAgent({
      uri: route.proxy.url,
      clientFactory: proxyPool,
      ...(token ? { token } : {}),
      // Plain http is handed to the proxy whole (absolute-form, as curl does: most proxies allow CONNECT to
      // port 443 only); https always goes by CONNECT, and TLS runs end to end inside the tunnel.
      proxyTunnel: false,
      keepAliveTimeout: KEEP_ALIVE_MS,
      requestTls: { ...tls, timeout: CONNECT_TIMEOUT_MS },
      proxyTls: { ...(secure ? this.trust.tlsOptions(this.verify && this.settings.proxyStrictSSL !== false) : {}), timeout: CONNECT_TIMEOUT_MS },
    });
  }

  override async close(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((a) => a.close().catch(() => undefined)));
  }

  override async destroy(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((a) => a.destroy().catch(() => undefined)));
  }
}

/** The network of one set of settings: a routing dispatcher for verification on, one for off, and their trust. */
export class Network {
  private readonly routers = new Map<boolean, RoutingDispatcher>();
  /** Shared by both: the authorities are parsed once a network. */
  private readonly trust: NetworkTrust;

  constructor(readonly settings: NetworkSettings) {
    this.trust = new NetworkTrust(settings.extraCa);
  }

  dispatcher(verify: boolean): Dispatcher {
    let router = this.routers.get(verify);
    if (!router) {
      router = new RoutingDispatcher(this.settings, verify, this.trust);
      this.routers.set(verify, router);
    }
    return router;
  }

  async close(): Promise<void> {
    const all = [...this.routers.values()];
    this.routers.clear();
    await Promise.all(all.map((r) => r.close()));
  }
}

/** Field names of a form or JSON body (a password grant's form is one). */
function bodyFieldNames(body: string): string[] {
  const json = [...body.matchAll(/"([^"\\]{1,64})"\s*:/g)].map((m) => m[1]!);
  return json.length ? json : [...new URLSearchParams(body).keys()];
}

/**
 * A credential the request carries: the URL's user info, a credential header, a secret-named query
 * parameter (`?access_token=…`), a secret field of its body, or else a secret the run holds (the send boundary's search: in any header, query parameter or
 * body, whatever its name).
 */
function credentialCarried(request: HttpRequest, url: URL, guard: SecretBindings | undefined): string | undefined {
  if (url.username || url.password) return "the URL's user name and password";
  const header = Object.keys(request.headers).find((name) => isCredentialHeader(name));
  if (header !== undefined) return `its ${header} header`;
  const parameter = [...url.searchParams.keys()].find((name) => isSecretName(name));
  if (parameter !== undefined) return `its ${parameter} query parameter`;
  const field = request.body ? bodyFieldNames(request.body).find((name) => isSecretName(name)) : undefined;
  if (field !== undefined) return `the ${field} field of its body`;
  const held = guard?.carries(request)[0];
  return held === undefined ? undefined : `${held.what} in ${partWords(held.part)}`;
}

/** What is said, once, when a credential goes to a proxy in a plain http request. */
export function plainHttpNotice(request: HttpRequest, proxy: ProxyEndpoint, what: string): string {
  const url = new URL(request.url);
  return `${request.method.toUpperCase()} ${url.origin} is plain http and goes through the proxy ${proxy.url} (${proxy.source}): ` +
    `the proxy sees the whole request, ${what} included. Use https (the proxy then sees only the host name), ` +
    `or add ${url.hostname} to the no-proxy list to send it directly.`;
}

/**
 * The HTTP port over `base` that sends every request through the current network (asked at each send:
 * a change of settings or environment holds from the next request). `notice` hears, once for each
 * network, that a plain-http request is showing a credential to a proxy.
 */
export function networkPort(base: HttpPort, network: () => Network | Promise<Network>, notice?: (text: string) => void): HttpPort {
  const told = new WeakSet<Network>();
  const optionsFor = async (request: HttpRequest, options: SendOptions | undefined): Promise<SendOptions> => {
    if (options?.dispatcher) return options;
    const current = await network();
    const verify = options?.rejectUnauthorized !== false;
    if (notice && !told.has(current) && request.url.startsWith('http:')) {
      const url = new URL(request.url);
      const route = routeOf(current.settings, url, verify);
      const what = route.proxy ? credentialCarried(request, url, options?.guard) : undefined;
      if (route.proxy && what) {
        told.add(current);
        notice(plainHttpNotice(request, route.proxy, what));
      }
    }
    return { ...options, dispatcher: current.dispatcher(verify) };
  };
  return {
    send: async (request, options) => base.send(request, await optionsFor(request, options)),
    stream: async (request, options) => base.stream(request, await optionsFor(request, options)),
  };
}
