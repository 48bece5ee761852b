// The CLI's network for a run: --proxy, --cacert, the proxy environment variables, NODE_EXTRA_CA_CERTS and
// the environment's "Proxy", "CA Bundle" and "SSLConfiguration" (src/core/http/networkSettings.ts), as
// one HTTP port that every send, sign-in and page of the run goes through. What is not used as written is
// said once on stderr; the proxy password joins the redactor's secrets. `apiwb run` and `apiwb compare`
// (one network a side: each side's environment has its own proxy, CA bundle and certificates) both
// open theirs here, and parse the same flags (NETWORK_ARGS, networkFlagsOf).
import { readFileSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import type { Environment } from '../core/env/model';
import type { RunFiles } from '../core/files/outputs';
import { httpClient, type HttpPort } from '../core/http/client';
import { Network, networkPort } from '../core/http/network';
import { PROXY_PASSWORD_KEY, resolveNetwork, type ResolvedNetwork } from '../core/http/networkSettings';
import type { Redactor } from '../core/secrets/redact';
import type { SecretStore } from '../core/secrets/secretStore';
import { PROXY_PASSWORD_VARIABLE } from '../core/secrets/secretVariables';
import { terminalSafe } from '../core/text/terminalText';
import { InputError } from './nodePorts/files';

export const NETWORK_HELP = `  --proxy URL         send through this proxy (http://host:port); default: HTTPS_PROXY / HTTP_PROXY /
                      ALL_PROXY, bypassed for NO_PROXY (names, .suffixes, host:port, CIDR, *); an
                      environment's "ApiWorkbench": { "Proxy": URL or "direct" } comes first. https goes
                      by CONNECT (the proxy sees the host only). Proxy password: APIWB_SECRET_PROXY_PASSWORD
                      with the user in the URL (http://USER@host:port), or the whole URL in HTTPS_PROXY;
                      it goes only to the proxy of --proxy or the variables, never an env file's other one
  --cacert FILE       trust the certificate authorities of this PEM file too (repeatable), on top of the
                      system's and NODE_EXTRA_CA_CERTS; an environment's "CA Bundle" adds its own. A
                      file that cannot be read is said at the start and not used; the run goes on
`;

/** The TLS flags' help, the same for every command that sends. */
export const TLS_HELP = `  --insecure          do not verify TLS certificates of the requests' servers (off by default; only
                      for a server you trust); sign-ins still verify theirs
  --insecure-token-endpoint
                      do not verify the TLS certificate of the token endpoint either (a password
                      goes there: only for a sign-in server you trust)
`;

/** The network flags, as node:util parseArgs options. */
export const NETWORK_ARGS = {
  proxy: { type: 'string' },
  cacert: { type: 'string', multiple: true },
  insecure: { type: 'boolean' },
  'insecure-token-endpoint': { type: 'boolean' },
} as const;

export interface NetworkFlags {
  /** --proxy URL and --cacert FILE. */
  readonly proxy?: string;
  readonly cacert?: readonly string[];
  /** --insecure: the requests' servers' certificates are not verified. */
  readonly insecure: boolean;
  /** --insecure-token-endpoint: sign-ins too go without TLS verification (a separate opt-in: a password goes there). */
  readonly insecureTokenEndpoint: boolean;
}

export function networkFlagsOf(values: { proxy?: string | undefined; cacert?: string[] | undefined; insecure?: boolean | undefined; 'insecure-token-endpoint'?: boolean | undefined }): NetworkFlags {
  return {
    ...(values.proxy ? { proxy: values.proxy } : {}),
    ...(values.cacert ? { cacert: values.cacert } : {}),
    insecure: values.insecure ?? false,
    insecureTokenEndpoint: values['insecure-token-endpoint'] ?? false,
  };
}

export interface RunNetwork {
  readonly http: HttpPort;
  /** The proxy password and certificate passphrases: no output may show them. */
  readonly secretValues: readonly string[];
  close(): Promise<void>;
}

export async function openRunNetwork(
  options: { readonly proxy?: string; readonly cacert?: readonly string[] },
  environment: Environment,
  envPath: string,
  io: { readonly env: Readonly<Record<string, string | undefined>>; readonly stderr: NodeJS.WritableStream; readonly command?: string },
  secrets: SecretStore,
  redactor: Redactor,
  files: RunFiles,
): Promise<RunNetwork> {
  // The proxy password is the proxy's own variable, never a secret the store keeps for an auth id `proxy`.
  const secret = (key: string): Promise<string | undefined> => (key === PROXY_PASSWORD_KEY ? Promise.resolve(io.env[PROXY_PASSWORD_VARIABLE] || undefined) : secrets.get(key));
  const resolved = await resolveRunNetwork(options, environment, envPath, io.env, secret, files);
  redactor.addKnownSecrets(resolved.secretValues);
  const say = (text: string): void => { io.stderr.write(`${io.command ?? 'apiwb run'}: ${terminalSafe(redactor.text(text))}\n`); };
  for (const problem of resolved.problems) say(problem);
  for (const state of resolved.certificates) {
    if (state.condition !== 'ready') say(`client certificate ${state.file} for ${state.hosts.join(', ')}: ${state.words}`);
  }
  const network = new Network(resolved.settings);
  return {
    http: networkPort(httpClient, () => network, (text) => say(`warning: ${text}`)),
    secretValues: resolved.secretValues,
    close: () => network.close(),
  };
}

/**
 * The network settings of a run's environment, read as the run reads them: every certificate file read
 * (CA bundles, --cacert, client certificates and keys) is an input of the run, registered before it is
 * read; one an output claimed stops it (InputError, exit 2). A fault report registers them the same way.
 */
export async function resolveRunNetwork(
  options: { readonly proxy?: string; readonly cacert?: readonly string[] },
  environment: Environment,
  envPath: string,
  env: Readonly<Record<string, string | undefined>>,
  secret: (key: string) => Promise<string | undefined>,
  files: RunFiles,
): Promise<ResolvedNetwork> {
  const folder = dirname(envPath);
  let refused: Error | undefined;
  const readFile = (path: string): Buffer => {
    try {
      files.input(path, 'a certificate file of the network settings');
    } catch (error) {
      refused ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
    return readFileSync(path);
  };
  const resolved = await resolveNetwork({
    env,
    ...(options.proxy ? { proxyFlag: options.proxy } : {}),
    ...(options.cacert?.length ? { caFiles: options.cacert } : {}),
    environment,
    resolve: (path) => resolvePath(folder, path),
    readFile,
    now: Date.now(),
    secret,
  });
  if (refused) throw new InputError(refused.message);
  return resolved;
}
