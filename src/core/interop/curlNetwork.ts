// The network flags of a copied curl command, so it goes the way the product's own request goes: the
// proxy (--proxy; --proxy-user with the user only, curl asks for the password) or --noproxy for a host
// sent directly, the company authorities (--cacert, https only: curl trusts that file instead of its own
// bundle, as a TLS-inspecting network needs), the client certificate configured for this host (--cert,
// --key, --cert-type P12) and --insecure where the env file turns verification off for it.
// No secret is ever written: no proxy password, no passphrase.
import { routeOf } from '../http/network';
import type { ResolvedNetwork } from '../http/networkSettings';
import { shellQuote } from './shellQuote';

export function curlNetworkFlags(resolved: ResolvedNetwork, url: string): string[] {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return [];
  }
  const { settings, files } = resolved;
  const route = routeOf(settings, target);
  const flags: string[] = [];
  if (route.proxy) {
    flags.push(`--proxy ${shellQuote(route.proxy.url)}`);
    if (route.proxy.username !== undefined) flags.push(`--proxy-user ${shellQuote(route.proxy.username)}`);
  } else if (target.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy) {
    flags.push(`--noproxy ${shellQuote(target.hostname)}`);
  }
  if (target.protocol === 'https:') {
    // curl takes one --cacert: the environment's own bundle comes first (networkSettings.ts), then --cacert files.
    const authorities = files.authorities[0];
    if (authorities) flags.push(`--cacert ${shellQuote(authorities)}`);
    // files.certificates is in the order of settings.clientCertificates (resolveNetwork adds both at once).
    const certificate = route.certificate ? files.certificates[settings.clientCertificates?.indexOf(route.certificate) ?? -1] : undefined;
    if (certificate) {
      flags.push(`--cert ${shellQuote(certificate.cert)}`);
      if (certificate.format === 'PFX') flags.push('--cert-type P12');
      if (certificate.key) flags.push(`--key ${shellQuote(certificate.key)}`);
    }
    if (!route.verify) flags.push('--insecure');
  }
  return flags;
}

/** curlNetworkFlags for a CurlOptions.networkFlags. */
export function curlNetworkFlagsOf(resolved: ResolvedNetwork): (url: string) => string[] {
  return (url) => curlNetworkFlags(resolved, url);
}
