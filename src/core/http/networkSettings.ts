// Where the network settings come from, in one order for the editor and the CLI:
//   proxy:  the env file's environment ("ApiWorkbench"."Proxy", "direct" for none) → --proxy URL →
//           VS Code's http.proxy (http.proxySupport "off": no proxy at all) → HTTPS_PROXY / HTTP_PROXY
//           (either case) → ALL_PROXY;
//   bypass: the env file's "No Proxy", else VS Code's http.noProxy and NO_PROXY together;
//   trust:  the system's authorities, plus NODE_EXTRA_CA_CERTS, --cacert files, the env file's "CA Bundle"
//           and, in the editor, the operating system's certificates (http.systemCertificates);
//   client certificates: the env file's "SSLConfiguration", passphrases from the secret store.
// A proxy password comes from the secret store (`proxy.password`: VS Code SecretStorage, or
// APIWB_SECRET_PROXY_PASSWORD) or from a proxy URL in an environment variable; one written in a
// setting, a file or on the command line is not used, and said so. A stored proxy password is bound to
// the proxy it was given for (proxyPasswordOrigins): the origins kept with it (the editor keeps the proxy
// it was entered for), else the user's own proxies (--proxy, http.proxy, HTTPS_PROXY / HTTP_PROXY /
// ALL_PROXY: never an env file's, which a repository writes). Another proxy gets no password, said so.
import type { Environment } from '../env/model';
import { authoritiesWords, readAuthorities, readClientCertificate, type CertificateState, type FilePorts } from './certificateFiles';
import type { ClientCertificate, NetworkSettings, ProxyEndpoint } from './network';
import { parseNoProxy } from './noProxy';
import { basicUserProblem } from '../auth/basicCredential';
import { urlPasswordsMasked } from '../secrets/redact';
import { readBound } from '../secrets/secretPlace';

/** VS Code's http.* settings, as plain data. */
export interface EditorNetworkSettings {
  readonly proxy?: string;
  readonly noProxy?: readonly string[];
  readonly proxyStrictSSL?: boolean;
  /** 'off' | 'on' | 'fallback' | 'override'. */
  readonly proxySupport?: string;
  readonly systemCertificates?: boolean;
}

export interface NetworkSources extends FilePorts {
  /** The process environment (proxy variables, NODE_EXTRA_CA_CERTS). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly proxyFlag?: string;
  readonly caFiles?: readonly string[];
  readonly editor?: EditorNetworkSettings;
  readonly environment?: Environment;
  /** Secret store lookup: `proxy.password`, `<certificate id>.passphrase`. */
  readonly secret: (key: string) => Promise<string | undefined>;
  /** The operating system's authorities (the editor, where the runtime reads them); undefined: cannot. */
  readonly systemAuthorities?: () => readonly string[] | undefined;
}

export interface ResolvedNetwork {
  readonly settings: NetworkSettings;
  /** The proxy in words: "http://proxy:3128 (HTTPS_PROXY), not for: localhost" or "none (direct)". */
  readonly proxyWords: string;
  /** Each extra authority source in words (made on first reading: they parse every certificate). */
  readonly authorities: readonly string[];
  readonly certificates: readonly CertificateState[];
  /** What is not used as written, in words (said once by the host). */
  readonly problems: readonly string[];
  /** Values no output may show (the proxy password). */
  readonly secretValues: readonly string[];
  /** The files behind the settings, for copy as curl: --cacert and --cert (certificates in the order of settings.clientCertificates). */
  readonly files: { readonly authorities: readonly string[]; readonly certificates: readonly { readonly hosts: readonly string[]; readonly cert: string; readonly key?: string; readonly format: 'PEM' | 'PFX' }[] };
}

export const PROXY_PASSWORD_KEY = 'proxy.password';

function envValue(env: NetworkSources['env'], name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A proxy as its origin (`http://host:port`; without a scheme, http://), or undefined for one that is not an http(s) URL. */
export function proxyOrigin(text: string): string | undefined {
  const read = /^[a-z][\w+.-]*:\/\//i.test(text.trim()) ? text.trim() : `http://${text.trim()}`;
  try {
    const url = new URL(read);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The proxies the user's own settings name (--proxy, http.proxy, HTTPS_PROXY / HTTP_PROXY / ALL_PROXY),
 * as origins: where a proxy password given without one (APIWB_SECRET_PROXY_PASSWORD) may go. An env
 * file's "Proxy" is not among them: a repository writes it.
 */
export function ownProxyOrigins(sources: Pick<NetworkSources, 'env' | 'proxyFlag' | 'editor'>): string[] {
  const named = [
    sources.proxyFlag,
    sources.editor?.proxySupport === 'off' ? undefined : sources.editor?.proxy,
    envValue(sources.env, 'HTTPS_PROXY'), envValue(sources.env, 'HTTP_PROXY'), envValue(sources.env, 'ALL_PROXY'),
  ];
  const origins = new Set<string>();
  for (const text of named) {
    const origin = text?.trim() ? proxyOrigin(text) : undefined;
    if (origin) origins.add(origin);
  }
  return [...origins].sort();
}

/** The stored proxy password and the proxy origins it may go to (kept with it, else the user's own). */
function proxyPasswordOrigins(stored: string, sources: NetworkSources): { value: string; origins: readonly string[] } {
  const { value, origins } = readBound(stored);
  return { value, origins: origins ?? ownProxyOrigins(sources) };
}

interface ProxyChoice {
  readonly http?: { url: string; source: string };
  readonly https?: { url: string; source: string };
}

function chooseProxy(sources: NetworkSources): ProxyChoice {
  const own = sources.environment?.network?.proxy;
  const named = sources.environment ? `env file, environment '${sources.environment.name}'` : 'env file';
  if (own === 'direct') return {};
  if (own) return { http: { url: own, source: named }, https: { url: own, source: named } };
  if (sources.proxyFlag) return { http: { url: sources.proxyFlag, source: '--proxy' }, https: { url: sources.proxyFlag, source: '--proxy' } };
  if (sources.editor?.proxySupport === 'off') return {};
  const editorProxy = sources.editor?.proxy?.trim();
  if (editorProxy) return { http: { url: editorProxy, source: 'http.proxy' }, https: { url: editorProxy, source: 'http.proxy' } };
  const all = envValue(sources.env, 'ALL_PROXY');
  const http = envValue(sources.env, 'HTTP_PROXY');
  const https = envValue(sources.env, 'HTTPS_PROXY');
  return {
    ...(http ? { http: { url: http, source: 'HTTP_PROXY' } } : all ? { http: { url: all, source: 'ALL_PROXY' } } : {}),
    ...(https ? { https: { url: https, source: 'HTTPS_PROXY' } } : all ? { https: { url: all, source: 'ALL_PROXY' } } : {}),
  };
}

async function endpoint(choice: { url: string; source: string }, sources: NetworkSources, problems: string[], secrets: string[]): Promise<ProxyEndpoint | undefined> {
  let url: URL;
  // Without a scheme a proxy is read as http://, and quoted so: the password rule of URLs sees its user info.
  const read = /^[a-z][\w+.-]*:\/\//i.test(choice.url) ? choice.url : `http://${choice.url}`;
  try {
    url = new URL(read);
  } catch {
    problems.push(`The proxy '${urlPasswordsMasked(read)}' (${choice.source}) is not a URL; requests go directly.`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`The proxy ${url.protocol}//${url.host} (${choice.source}) is not an http:// or https:// proxy; requests go directly.`);
    return undefined;
  }
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const userProblem = username === undefined ? undefined : basicUserProblem(username);
  if (userProblem) {
    problems.push(`The proxy's user name (${choice.source}) ${userProblem}; requests go directly.`);
    return undefined;
  }
  const fromVariable = /_PROXY$/.test(choice.source);
  let password = url.password && fromVariable ? decodeURIComponent(url.password) : undefined;
  if (url.password && !fromVariable) {
    problems.push(`The proxy password written in ${choice.source} is not used: a proxy password comes from the credential store (VS Code: "API Workbench: Set Proxy Password"; apiwb: APIWB_SECRET_PROXY_PASSWORD), never from a setting, a file or the command line.`);
  }
  const kept = await sources.secret(PROXY_PASSWORD_KEY);
  const stored = kept === undefined ? undefined : proxyPasswordOrigins(kept, sources);
  // Masked wherever it is shown, whichever proxy it goes to (or none).
  if (stored) secrets.push(stored.value);
  if (stored && !stored.origins.includes(url.origin)) {
    pushOnce(problems, `The proxy ${url.origin} (${choice.source}) gets no proxy password: the stored one was given for ${stored.origins.length ? stored.origins.join(', ') : 'no proxy'} only` +
      ' (the proxy of --proxy, http.proxy or HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, or the one "Set Proxy Password" was used with; never an env file\'s), and goes to no other.');
  } else if (stored) {
    if (username === undefined) problems.push(`A proxy password is stored, but the proxy URL (${choice.source}) names no user: write it as http://USER@host:port.`);
    password = stored.value;
  }
  if (password && password !== stored?.value) secrets.push(password);
  return {
    url: `${url.protocol}//${url.host}`,
    source: choice.source,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined && username !== undefined ? { password } : {}),
  };
}

/** The same proxy for http and https says a problem once. */
function pushOnce(lines: string[], line: string): void {
  if (!lines.includes(line)) lines.push(line);
}

function noProxyText(sources: NetworkSources): string {
  const own = sources.environment?.network?.noProxy;
  if (own !== undefined) return own;
  return [...(sources.editor?.noProxy ?? []), envValue(sources.env, 'NO_PROXY') ?? ''].filter((e) => e !== '').join(',');
}

function proxyWords(settings: NetworkSettings, sources: NetworkSources): string {
  const { httpProxy, httpsProxy } = settings;
  if (!httpProxy && !httpsProxy) {
    const why = sources.environment?.network?.proxy === 'direct' ? ' (the env file says "direct")' : sources.editor?.proxySupport === 'off' ? ' (http.proxySupport is off)' : '';
    return `none: requests go directly${why}`;
  }
  const one = (p: ProxyEndpoint): string => `${p.url} (${p.source})${p.username ? `, signs in as ${p.username}${p.password ? '' : ', no password stored'}` : ''}`;
  const both = httpProxy && httpsProxy && httpProxy.url === httpsProxy.url && httpProxy.source === httpsProxy.source
    ? one(httpsProxy)
    : [httpsProxy ? `https: ${one(httpsProxy)}` : 'https: direct', httpProxy ? `http: ${one(httpProxy)}` : 'http: direct'].join('; ');
  const bypass = settings.noProxy?.text ? `; not for ${settings.noProxy.text}` : '';
  const strict = settings.proxyStrictSSL === false ? "; the proxy's own certificate is not verified (http.proxyStrictSSL)" : '';
  return `${both}${bypass}${strict}`;
}

/**
 * The certificate authorities beyond Node's own: the env file's, --cacert, NODE_EXTRA_CA_CERTS, the
 * system's. The files are read here, at once (a missing or unreadable one is a problem said at the start,
 * whatever the requests' schemes); their words, which parse every certificate, are made when asked for.
 */
function resolveAuthorities(sources: NetworkSources, problems: string[]): { words: () => string[]; extraCa: string[]; files: string[] } {
  const words: (() => string)[] = [];
  const extraCa: string[] = [];
  const files: string[] = [];
  const extraCerts = envValue(sources.env, 'NODE_EXTRA_CA_CERTS');
  // The environment's own first: it is what the Environments view is about.
  const caFiles = [
    ...(sources.environment?.network?.caBundles ?? []).map((path) => ({ path, from: 'env file', resolve: sources.resolve })),
    ...(sources.caFiles ?? []).map((path) => ({ path, from: '--cacert', resolve: (p: string) => p })),
    ...(extraCerts ? [{ path: extraCerts, from: 'NODE_EXTRA_CA_CERTS', resolve: (p: string) => p }] : []),
  ];
  for (const file of caFiles) {
    const read = readAuthorities(file.path, { ...sources, resolve: file.resolve });
    const { problem } = read;
    if (problem !== undefined) {
      words.push(() => `${problem} (${file.from})`);
      problems.push(`The certificate authorities of ${problem} (${file.from}) are not used.`);
      continue;
    }
    words.push(() => `${authoritiesWords(file.path, read.pems, sources.now)} (${file.from})`);
    extraCa.push(...read.pems);
    files.push(file.resolve(file.path));
  }
  if (sources.editor && sources.editor.systemCertificates !== false) {
    const system = sources.systemAuthorities?.();
    if (system === undefined) words.push(() => "the operating system's certificates: not readable by this editor's Node; add your company's authority to the env file (\"CA Bundle\")");
    else {
      words.push(() => `the operating system's certificates: ${system.length}`);
      extraCa.push(...system);
    }
  }
  let said: string[] | undefined;
  return { words: () => (said ??= words.map((w) => w())), extraCa, files };
}

/** The client certificates of the environment, each host's, with their passphrases from the secret store. */
async function resolveCertificates(sources: NetworkSources, secretValues: string[]): Promise<{
  states: CertificateState[]; certificates: ClientCertificate[]; files: ResolvedNetwork['files']['certificates'][number][]; unverifiedHosts: string[];
}> {
  const states: CertificateState[] = [];
  const certificates: ClientCertificate[] = [];
  const files: ResolvedNetwork['files']['certificates'][number][] = [];
  const unverifiedHosts: string[] = [];
  for (const config of sources.environment?.network?.certificates ?? []) {
    const passphrase = config.hasPassphrase ? await sources.secret(`${config.id}.passphrase`) : undefined;
    if (passphrase) secretValues.push(passphrase);
    const read = readClientCertificate(config, passphrase, sources, `${config.certificate?.path ?? config.id}`);
    states.push(read.state);
    if (read.certificate) {
      certificates.push(read.certificate);
      files.push({ hosts: config.hosts, cert: sources.resolve(config.certificate!.path), ...(config.key ? { key: sources.resolve(config.key) } : {}), format: config.certificate!.format });
    }
    if (!config.verifyHost) unverifiedHosts.push(...config.hosts);
  }
  return { states, certificates, files, unverifiedHosts };
}

/** The network settings of these sources, with what each part is in words. */
export async function resolveNetwork(sources: NetworkSources): Promise<ResolvedNetwork> {
  const problems: string[] = [];
  const secretValues: string[] = [];
  const choice = chooseProxy(sources);
  const httpProxy = choice.http ? await endpoint(choice.http, sources, problems, secretValues) : undefined;
  const httpsProxy = choice.https ? await endpoint(choice.https, sources, problems, secretValues) : undefined;
  const noProxy = parseNoProxy(noProxyText(sources));
  const authorities = resolveAuthorities(sources, problems);
  const certs = await resolveCertificates(sources, secretValues);
  const { extraCa } = authorities;
  const { certificates: clientCertificates, unverifiedHosts } = certs;
  const settings: NetworkSettings = {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    noProxy,
    ...(sources.editor?.proxyStrictSSL === false ? { proxyStrictSSL: false } : {}),
    ...(extraCa.length ? { extraCa } : {}),
    ...(clientCertificates.length ? { clientCertificates } : {}),
    ...(unverifiedHosts.length ? { unverifiedHosts } : {}),
  };
  return {
    settings,
    proxyWords: proxyWords(settings, sources),
    // Made when read (the Environments view): the CLI never shows them.
    get authorities() { return authorities.words(); },
    certificates: certs.states,
    problems,
    secretValues,
    files: { authorities: authorities.files, certificates: certs.files },
  };
}
