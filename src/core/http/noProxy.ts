// NO_PROXY: which hosts are reached directly although a proxy is set. One rule for the CLI's NO_PROXY,
// VS Code's http.noProxy and an env file's "No Proxy", in the forms curl and most tools accept:
//   *                      every host (no proxy at all)
//   example.com            that host and every host under it (api.example.com); a leading "." or "*."
//                          means the same (.example.com, *.example.com)
//   example.com:8443       the same, on that port only
//   10.0.0.0/8, fd00::/8   an IP address literal inside that range (host names are not resolved)
//   127.0.0.1, [::1]:8080  that address (on that port)
// Entries are separated by commas or white space; case does not matter.
import { BlockList, isIP } from 'node:net';

export interface NoProxyRule {
  /** The rule as given, for messages. */
  readonly text: string;
  /** True when the URL's host (and port) is one the proxy is bypassed for. */
  bypasses(url: URL): boolean;
}

interface HostEntry {
  readonly host: string;
  /** 0: any port. */
  readonly port: number;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** `[::1]` → `::1`; lower case. */
function bareHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

function hostEntry(entry: string): HostEntry {
  // host:port, [v6]:port; a bare IPv6 address has colons and no port.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!.toLowerCase(), port: bracketed[2] ? Number(bracketed[2]) : 0 };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  const host = withPort ? withPort[1]! : entry;
  return { host: host.replace(/^\*?\./, '').toLowerCase(), port: withPort ? Number(withPort[2]) : 0 };
}

export function parseNoProxy(text: string | readonly string[] | undefined): NoProxyRule {
  const joined = Array.isArray(text) ? text.join(',') : (text as string | undefined) ?? '';
  const entries = joined.split(/[\s,]+/).map((e) => e.trim()).filter((e) => e !== '');
  const all = entries.includes('*');
  const ranges = new BlockList();
  let anyRange = false;
  const hosts: HostEntry[] = [];
  for (const entry of entries) {
    const cidr = /^\[?([0-9a-fA-F:.]+)\]?\/(\d{1,3})$/.exec(entry);
    const family = cidr ? isIP(cidr[1]!) : 0;
    if (cidr && family !== 0) {
      const prefix = Number(cidr[2]);
      if (prefix <= (family === 4 ? 32 : 128)) {
        ranges.addSubnet(cidr[1]!, prefix, family === 4 ? 'ipv4' : 'ipv6');
        anyRange = true;
      }
      continue;
    }
    if (entry !== '*') hosts.push(hostEntry(entry));
  }
  return {
    text: entries.join(','),
    bypasses(url: URL): boolean {
      if (all) return true;
      const host = bareHost(url.hostname);
      const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
      const family = isIP(host);
      if (anyRange && family !== 0 && ranges.check(host, family === 4 ? 'ipv4' : 'ipv6')) return true;
      for (const entry of hosts) {
        if (entry.port !== 0 && entry.port !== port) continue;
        if (host === entry.host || (family === 0 && host.endsWith(`.${entry.host}`))) return true;
      }
      return false;
    },
  };
}
