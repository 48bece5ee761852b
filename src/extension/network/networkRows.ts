// An environment's network as rows of the Environments view, in words: the proxy it goes through (or
// "none"), the certificate authorities trusted on top of the system's, each client certificate with the
// hosts it goes to and its state (valid until, expired, unreadable, passphrase missing), and what is not
// used as written. vscode-free: the tree turns rows into items.
import type { Environment } from '../../core/env';
import type { CertificateCondition } from '../../core/http/certificateFiles';
import type { ResolvedNetwork } from '../../core/http/networkSettings';

export interface NetworkRow {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  /** A codicon name. */
  readonly icon: string;
  readonly contextValue: string;
  /** A client certificate's id (the passphrase command takes it). */
  readonly certificateId?: string;
}

const CERTIFICATE_ICONS: Readonly<Record<CertificateCondition, string>> = {
  ready: 'verified',
  expired: 'warning',
  'not-yet-valid': 'warning',
  unreadable: 'error',
  'passphrase-missing': 'key',
};

export function networkRows(resolved: ResolvedNetwork, environment: Environment | undefined): NetworkRow[] {
  const proxy = resolved.settings.httpsProxy ?? resolved.settings.httpProxy;
  const rows: NetworkRow[] = [{
    key: 'proxy',
    label: 'Proxy',
    description: resolved.proxyWords,
    tooltip: proxy
      ? `${resolved.proxyWords}. https goes through the proxy by CONNECT: it sees the host name, never a header, path or body. Plain http is handed to it whole.`
      : resolved.proxyWords,
    icon: proxy ? 'globe' : 'plug',
    contextValue: proxy?.username !== undefined ? 'networkProxySignsIn' : 'networkProxy',
  }];
  rows.push({
    key: 'authorities',
    label: 'Certificate authorities',
    description: resolved.authorities.length ? `the system's, and ${resolved.authorities.join('; ')}` : "the system's",
    tooltip: ["Servers' certificates are verified against the system's authorities", ...resolved.authorities.map((a) => `and ${a}`)].join('\n'),
    icon: 'shield',
    contextValue: 'networkAuthorities',
  });
  const configs = environment?.network?.certificates ?? [];
  for (const state of resolved.certificates) {
    const config = configs.find((c) => c.id === state.id);
    rows.push({
      key: `certificate:${state.id}`,
      label: `Client certificate ${state.file || state.id}`,
      description: `${state.hosts.length ? `for ${state.hosts.join(', ')}` : 'for no host'} · ${state.words}`,
      tooltip: `Offered only to ${state.hosts.join(', ') || 'no host'}. ${state.words}.${config?.verifyHost === false ? ' The server certificates of these hosts are not verified (verifyHostCertificate: false).' : ''}`,
      icon: CERTIFICATE_ICONS[state.condition],
      contextValue: config?.hasPassphrase ? 'networkCertificatePassphrase' : 'networkCertificate',
      certificateId: state.id,
    });
  }
  resolved.problems.forEach((problem, i) => rows.push({ key: `problem:${i}`, label: 'Not used', description: problem, tooltip: problem, icon: 'warning', contextValue: 'networkProblem' }));
  return rows;
}
