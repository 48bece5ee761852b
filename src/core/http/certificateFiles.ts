// Reads the certificate files an environment names, and says in words what state each is in: ready
// (valid until …), expired, not valid yet, unreadable (missing, not PEM, key that does not match, wrong
// passphrase) or passphrase missing. A certificate that cannot be used is not offered; one that has
// expired is offered (the server decides) and said so. Files come through the `readFile` port.
import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import type { CertificateConfig } from '../env/networkConfig';
import { secretEnvVarName } from '../secrets/secretStore';
import type { ClientCertificate } from './network';
import { faultText } from '../text/faultText';

export type CertificateCondition = 'ready' | 'expired' | 'not-yet-valid' | 'unreadable' | 'passphrase-missing';

export interface CertificateState {
  readonly id: string;
  readonly hosts: readonly string[];
  /** The file, as written in the env file. */
  readonly file: string;
  readonly condition: CertificateCondition;
  /** In words, for the Environments view and the CLI. */
  readonly words: string;
}

export interface FilePorts {
  /** Resolves a path as written in the env file. */
  readonly resolve: (path: string) => string;
  /** Throws when the file cannot be read. */
  readonly readFile: (path: string) => Buffer;
  readonly now: number;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text (a bundle holds several). */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

function reason(error: unknown): string {
  const message = faultText(error);
  if (/ENOENT/.test(message)) return 'no such file';
  if (/EACCES/.test(message)) return 'not readable (permissions)';
  if (/bad decrypt|mac verify|BAD_DECRYPT/i.test(message)) return 'the passphrase does not open it';
  if (/KEY_VALUES_MISMATCH|key values mismatch/i.test(message)) return 'the key does not belong to the certificate';
  return message.replace(/^error:[0-9A-F]+:[^:]*:/i, '').trim();
}

function validity(pem: string, now: number): { condition: CertificateCondition; words: string } {
  const x509 = new X509Certificate(pem);
  const until = new Date(x509.validTo);
  const from = new Date(x509.validFrom);
  const day = (d: Date): string => d.toISOString().slice(0, 10);
  if (until.getTime() < now) return { condition: 'expired', words: `expired on ${day(until)}` };
  if (from.getTime() > now) return { condition: 'not-yet-valid', words: `not valid before ${day(from)}` };
  return { condition: 'ready', words: `valid until ${day(until)}` };
}

/**
 * The client certificate to offer for a configuration, or why there is none. `passphrase`: from the
 * secret store, when the configuration says it has one.
 */
export function readClientCertificate(
  config: CertificateConfig,
  passphrase: string | undefined,
  ports: FilePorts,
  label: string,
): { certificate?: ClientCertificate; state: CertificateState } {
  const file = config.certificate?.path ?? '';
  const state = (condition: CertificateCondition, words: string): CertificateState => ({ id: config.id, hosts: config.hosts, file, condition, words });
  if (!config.certificate) return { state: state('unreadable', 'no "clientCertificate" file given') };
  if (config.hasPassphrase && passphrase === undefined) {
    return { state: state('passphrase-missing', `passphrase missing (VS Code: "Set Client Certificate Passphrase"; apiwb: ${secretEnvVarName(config.id, 'passphrase')})`) };
  }
  if (config.hosts.length === 0) return { state: state('unreadable', 'no host to offer it to: give "hosts", or a URL variable in the environment') };
  try {
    const bytes = ports.readFile(ports.resolve(config.certificate.path));
    const secret = passphrase === undefined ? {} : { passphrase };
    if (config.certificate.format === 'PFX') {
      createSecureContext({ pfx: bytes, ...secret });
      return { certificate: { hosts: config.hosts, pfx: bytes, ...secret, label }, state: state('ready', 'PFX, opens') };
    }
    const cert = bytes.toString('utf8');
    const key = config.key === undefined ? undefined : ports.readFile(ports.resolve(config.key)).toString('utf8');
    createSecureContext({ cert, ...(key === undefined ? {} : { key }), ...secret });
    const { condition, words } = validity(pemCertificates(cert)[0] ?? cert, ports.now);
    return { certificate: { hosts: config.hosts, cert, ...(key === undefined ? {} : { key }), ...secret, label }, state: state(condition, words) };
  } catch (error) {
    return { state: state('unreadable', `unreadable: ${reason(error)}`) };
  }
}

/**
 * A CA bundle file: its certificates, or why it cannot be used (`problem`). Reading it and cutting out its
 * PEM blocks costs under a millisecond for a system bundle; no certificate is parsed here.
 */
export function readAuthorities(path: string, ports: FilePorts): { pems: string[]; problem?: string } {
  let text: string;
  try {
    text = ports.readFile(ports.resolve(path)).toString('utf8');
  } catch (error) {
    return { pems: [], problem: `${path}: unreadable (${reason(error)})` };
  }
  const pems = pemCertificates(text);
  return pems.length === 0 ? { pems, problem: `${path}: unreadable (no PEM certificate in it)` } : { pems };
}

/**
 * A readable CA bundle in words: how many authorities, and how many of them have expired. Every
 * certificate is parsed for its dates (tens of milliseconds for a system bundle): only for showing.
 */
export function authoritiesWords(path: string, pems: readonly string[], now: number): string {
  const expired = pems.filter((pem) => {
    try {
      return validity(pem, now).condition === 'expired';
    } catch {
      return false;
    }
  }).length;
  const count = `${pems.length} ${pems.length === 1 ? 'authority' : 'authorities'}`;
  return `${path}: ${count}${expired ? `, ${expired} expired` : ''}`;
}
