// An environment's network, as an env file writes it:
//   "SSLConfiguration" (JetBrains' form): "clientCertificate" (a path, or { "path", "format": "PEM"|"PFX" }),
//     "clientCertificateKey", "hasCertificatePassphrase", "verifyHostCertificate"; API Workbench adds "hosts"
//     (which hosts get the certificate; without it, the hosts of the environment's URL variables). Several
//     hosts with certificates of their own: an object of "host[:port]": { the same fields }.
//   "ApiWorkbench": { "Proxy": URL or "direct", "No Proxy": "a.example, 10.0.0.0/8", "CA Bundle": path or [paths] }.
// No secret here: a proxy URL with a password is refused (proxy passwords and certificate passphrases live
// in the secret store: `proxy.password`, `<certificate id>.passphrase`). Paths stay as written; the host
// that reads files resolves them against the env file's folder.
import { EnvFileError } from './model';
import { isJsonObject } from '../json/numberText';

export interface CertificateConfig {
  /** Names its passphrase in the secret store: `<id>.passphrase` (CLI: APIWB_SECRET_<ID>_PASSPHRASE). */
  readonly id: string;
  /** `host` or `host:port`; the certificate is offered to these and no other. */
  readonly hosts: readonly string[];
  readonly certificate?: { readonly path: string; readonly format: 'PEM' | 'PFX' };
  readonly key?: string;
  readonly hasPassphrase: boolean;
  /** JetBrains' verifyHostCertificate: false turns verification off for these hosts. */
  readonly verifyHost: boolean;
}

export interface EnvironmentNetwork {
  /** A proxy URL (no user info), or 'direct' (no proxy for this environment). */
  readonly proxy?: string;
  readonly noProxy?: string;
  readonly caBundles: readonly string[];
  readonly certificates: readonly CertificateConfig[];
}

type Where = { file: string; env: string };
type Json = Record<string, unknown>;

/** The id (secret-store name) of a per-host certificate: its passphrase is `<id>.passphrase`. */
export const SSL_PER_HOST_ID = (host: string): string => `client-certificate-${host}`;

const SINGLE_FORM_KEYS = ['clientCertificate', 'clientCertificateKey', 'hasCertificatePassphrase', 'verifyHostCertificate', 'hosts'];

function fail(where: Where, key: string, detail: string): never {
  throw new EnvFileError(detail, { ...where, key });
}

/** The hosts (with their port) of the environment's URL-valued variables. */
export function environmentHosts(variables: Readonly<Record<string, string>>): string[] {
  const hosts = new Set<string>();
  for (const value of Object.values(variables)) {
    if (!/^https?:\/\//i.test(value)) continue;
    try {
      hosts.add(new URL(value).host.toLowerCase());
    } catch {
      // not a URL after all
    }
  }
  return [...hosts];
}

function certificateOf(value: unknown, where: Where, key: string): CertificateConfig['certificate'] {
  if (value === undefined) return undefined;
  const path = typeof value === 'string' ? value : isJsonObject(value) && typeof value['path'] === 'string' ? value['path'] : undefined;
  if (!path) fail(where, key, 'give the certificate file: "clientCertificate": "certs/client.pem" or { "path": "certs/client.pfx", "format": "PFX" }');
  const written = isJsonObject(value) && typeof value['format'] === 'string' ? value['format'].toUpperCase() : undefined;
  const format = written ?? (/\.(pfx|p12)$/i.test(path) ? 'PFX' : 'PEM');
  if (format !== 'PEM' && format !== 'PFX') fail(where, key, `format '${String(written)}' is not read; use "PEM" or "PFX"`);
  return { path, format };
}

function oneCertificate(body: Json, id: string, hosts: readonly string[], where: Where, key: string): CertificateConfig {
  const certificate = certificateOf(body['clientCertificate'], where, `${key}.clientCertificate`);
  const keyFile = body['clientCertificateKey'];
  if (keyFile !== undefined && typeof keyFile !== 'string') fail(where, `${key}.clientCertificateKey`, 'give the key file as a path');
  for (const flag of ['hasCertificatePassphrase', 'verifyHostCertificate']) {
    if (body[flag] !== undefined && typeof body[flag] !== 'boolean') fail(where, `${key}.${flag}`, 'true or false');
  }
  return {
    id, hosts,
    ...(certificate ? { certificate } : {}),
    ...(typeof keyFile === 'string' ? { key: keyFile } : {}),
    hasPassphrase: body['hasCertificatePassphrase'] === true,
    verifyHost: body['verifyHostCertificate'] !== false,
  };
}

function certificatesOf(value: unknown, variables: Readonly<Record<string, string>>, where: Where): CertificateConfig[] {
  if (value === undefined) return [];
  if (!isJsonObject(value)) fail(where, 'SSLConfiguration', 'an object: { "clientCertificate": ..., "clientCertificateKey": ..., "hasCertificatePassphrase": ..., "verifyHostCertificate": ... }');
  if (Object.keys(value).some((k) => SINGLE_FORM_KEYS.includes(k))) {
    const written = value['hosts'];
    if (written !== undefined && !(Array.isArray(written) && written.every((h) => typeof h === 'string'))) fail(where, 'SSLConfiguration.hosts', 'a list of host names, e.g. ["api.example.com", "localhost:8443"]');
    const hosts = (written) ?? environmentHosts(variables);
    return [oneCertificate(value, 'client-certificate', hosts, where, 'SSLConfiguration')];
  }
  return Object.entries(value).map(([host, body]) => {
    if (!isJsonObject(body)) fail(where, `SSLConfiguration.${host}`, 'an object with "clientCertificate" and its other fields');
    return oneCertificate(body, SSL_PER_HOST_ID(host), [host], where, `SSLConfiguration.${host}`);
  });
}

function proxyOf(value: unknown, where: Where): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') fail(where, 'ApiWorkbench.Proxy', 'a proxy URL such as "http://proxy.example:3128", or "direct"');
  if (value.trim().toLowerCase() === 'direct') return 'direct';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(where, 'ApiWorkbench.Proxy', `'${value}' is not a URL; write "http://proxy.example:3128" or "direct"`);
  }
  if (url.password) fail(where, 'ApiWorkbench.Proxy', 'holds a password, and env files are committed: remove it. A proxy password belongs in the credential store (VS Code: "API Workbench: Set Proxy Password"; CLI: APIWB_SECRET_PROXY_PASSWORD)');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(where, 'ApiWorkbench.Proxy', `a ${url.protocol} proxy is not supported; use an http:// or https:// proxy`);
  return value.trim();
}

/** The network part of an environment's JSON ($shared's merged underneath), or undefined when it has none. */
export function environmentNetwork(
  layers: readonly Json[],
  variables: Readonly<Record<string, string>>,
  where: Where,
): EnvironmentNetwork | undefined {
  let proxy: string | undefined;
  let noProxy: string | undefined;
  let caBundles: string[] = [];
  let certificates: CertificateConfig[] = [];
  let any = false;
  for (const raw of layers) {
    const own = isJsonObject(raw['ApiWorkbench']) ? raw['ApiWorkbench'] : {};
    if (own['Proxy'] !== undefined) proxy = proxyOf(own['Proxy'], where);
    if (own['No Proxy'] !== undefined) {
      const value = own['No Proxy'];
      if (typeof value !== 'string' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) fail(where, 'ApiWorkbench.No Proxy', 'hosts separated by commas, or a list of them');
      noProxy = Array.isArray(value) ? value.join(',') : value;
    }
    if (own['CA Bundle'] !== undefined) {
      const value = own['CA Bundle'];
      if (typeof value !== 'string' && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) fail(where, 'ApiWorkbench.CA Bundle', 'a path to a PEM file of certificate authorities, or a list of paths');
      caBundles = Array.isArray(value) ? [...(value)] : [value];
    }
    if (raw['SSLConfiguration'] !== undefined) certificates = certificatesOf(raw['SSLConfiguration'], variables, where);
    any ||= own['Proxy'] !== undefined || own['No Proxy'] !== undefined || own['CA Bundle'] !== undefined || raw['SSLConfiguration'] !== undefined;
  }
  if (!any) return undefined;
  return { ...(proxy ? { proxy } : {}), ...(noProxy !== undefined ? { noProxy } : {}), caBundles, certificates };
}
