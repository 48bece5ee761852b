// The trust of one network: what servers' and https proxies' certificates are verified against, the
// system's authorities plus the extra ones given (company CA bundles), never instead of them.
//   - Made when a connection first needs TLS (an https URL, or any request through an https proxy) and
//     kept for the network's life: a plain-http run parses no certificate and builds no secure context
//     (the system bundle's, with NODE_EXTRA_CA_CERTS, is some 40 ms of a CPU);
//   - the authorities go in as one secure context, shared by every route without a client certificate
//     and by the https proxy's own connection; a route with a client certificate has its own, made once
//     for that route's agent (node would parse every authority again for each connection given texts).
// Which files are read, and what is said of one that cannot be, is networkSettings.ts's: at the start.
import * as nodeTls from 'node:tls';
import type { ClientCertificate } from './network';

/** The system's authorities plus the extra ones; undefined when there is no extra one (node's own default). */
export function trustedAuthorities(extra: readonly string[] | undefined): string[] | undefined {
  if (!extra || extra.length === 0) return undefined;
  // node 22.15+ has the default store as it is (bundled + NODE_EXTRA_CA_CERTS); older ones: the bundled list.
  const defaults = (nodeTls as { getCACertificates?: (which: string) => string[] }).getCACertificates?.('default') ?? nodeTls.rootCertificates;
  return [...defaults, ...extra];
}

export class NetworkTrust {
  private authorities: string[] | undefined;
  private shared: nodeTls.SecureContext | undefined;

  /** `extra`: the extra authorities (PEM texts), read already; none parsed until a connection needs them. */
  constructor(private readonly extra: readonly string[] | undefined) {}

  /** TLS options verifying (or not) against the trusted authorities, offering `certificate` when given. */
  tlsOptions(verify: boolean, certificate?: ClientCertificate): nodeTls.ConnectionOptions {
    if (!this.extra?.length && !certificate) return { rejectUnauthorized: verify };
    if (!certificate) return { rejectUnauthorized: verify, secureContext: (this.shared ??= nodeTls.createSecureContext({ ca: this.ca() })) };
    const c = certificate;
    const ca = this.ca();
    const secureContext = nodeTls.createSecureContext({
      ...(ca ? { ca } : {}),
      ...(c.cert ? { cert: c.cert } : {}),
      ...(c.key ? { key: c.key } : {}),
      ...(c.pfx ? { pfx: c.pfx } : {}),
      ...(c.passphrase ? { passphrase: c.passphrase } : {}),
    });
    return { rejectUnauthorized: verify, secureContext };
  }

  private ca(): string[] | undefined {
    return (this.authorities ??= trustedAuthorities(this.extra));
  }
}
