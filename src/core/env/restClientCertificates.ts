// REST Client's `rest-client.certificates` setting ({ "host[:port]": { "cert", "key" } or { "pfx",
// "passphrase" } }) as the env file's per-host "SSLConfiguration" (networkConfig.ts). A passphrase is not
// written to the env file: it is handed back for the secret store, under the certificate's id.
import { SSL_PER_HOST_ID } from './networkConfig';
import { isJsonObject } from '../json/numberText';

export interface ImportedCertificates {
  /** The per-host SSLConfiguration to write into an environment. */
  readonly sslConfiguration: Record<string, Record<string, unknown>>;
  /** Passphrases for the secret store: key `<id>.passphrase`. */
  readonly passphrases: readonly { readonly key: string; readonly value: string }[];
  /** Hosts left out, with why. */
  readonly skipped: readonly string[];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function certificatesFromRestClient(setting: unknown): ImportedCertificates {
  const sslConfiguration: Record<string, Record<string, unknown>> = {};
  const passphrases: { key: string; value: string }[] = [];
  const skipped: string[] = [];
  if (!isJsonObject(setting)) return { sslConfiguration, passphrases, skipped };
  for (const [host, entry] of Object.entries(setting)) {
    if (typeof entry !== 'object' || entry === null) {
      skipped.push(`${host}: not an object of cert / key / pfx`);
      continue;
    }
    const fields = entry as Record<string, unknown>;
    const pfx = text(fields['pfx']);
    const cert = text(fields['cert']);
    const passphrase = text(fields['passphrase']);
    if (!pfx && !cert) {
      skipped.push(`${host}: neither "cert" nor "pfx"`);
      continue;
    }
    sslConfiguration[host] = pfx
      ? { clientCertificate: { path: pfx, format: 'PFX' }, hasCertificatePassphrase: passphrase !== undefined }
      : { clientCertificate: { path: cert, format: 'PEM' }, ...(text(fields['key']) ? { clientCertificateKey: text(fields['key']) } : {}), hasCertificatePassphrase: passphrase !== undefined };
    if (passphrase !== undefined) passphrases.push({ key: `${SSL_PER_HOST_ID(host)}.passphrase`, value: passphrase });
  }
  return { sslConfiguration, passphrases, skipped };
}
