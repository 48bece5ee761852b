// One side of `apiwb compare`: each planned request sent in ONE environment through the core's side
// exchange (src/core/compare/sideExchange.ts), its rows streamed to a file of its own through the
// redacting sink (no secret on disk). A side has its own credential service, secret store (its
// environment's APIWB_SECRET_<ENV>__… variables first, then its private env file's values) and guard,
// made by requestSides.ts, so a token signed in for one side is never offered to the other side's origins.
import { join } from 'node:path';
import { CredentialService } from '../../core/auth/credentials';
import { keepingSink, type GrowingFile } from '../../core/compare/growingFile';
import { runSideExchange } from '../../core/compare/sideExchange';
import type { SideSummary } from '../../core/compare/requestComparison';
import type { Environment } from '../../core/env/model';
import { dynamicVariables } from '../../core/run/dynamicVariables';
import { sendOptionsOf, type ExchangePorts } from '../../core/run/exchange';
import type { SecretBindings } from '../../core/secrets/bindings';
import type { SecretStore } from '../../core/secrets/secretStore';
import type { Redactor } from '../../core/secrets/redact';
import type { SecretVariables } from '../../core/secrets/secretVariables';
import { openOutputSink } from '../reporters/outputSink';
import { bodyFileReader, type PlannedRequest } from '../runPlan';

export interface SideOptions {
  readonly environment: Environment;
  /** The side's own send boundary: its secrets bound to its environment's origins. */
  readonly guard: SecretBindings;
  /** The side's own secrets (APIWB_SECRET_* variables, its private env file's values, what it signs in to). */
  readonly secretStore: SecretStore;
  /** Which APIWB_SECRET_* variable gives which secret (the env file's names). */
  readonly variables: SecretVariables;
  readonly allPages: boolean;
  readonly maxPages?: number;
  readonly timeoutMs: number;
  /** --insecure-token-endpoint: the side's sign-ins skip TLS verification (--insecure is in `ports`, for the requests only). */
  readonly insecureTokenEndpoint: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The side's own: its network (runNetwork.ts, its environment's proxy and certificates); its guard is made here. */
  readonly ports: Omit<ExchangePorts, 'guard'>;
  readonly redactor: Redactor;
  /** Every secret value of the run (grows as tokens are handed out): scrubbed from the rows files. */
  readonly secrets: string[];
  readonly signal?: AbortSignal;
  /** After each page kept (progress). */
  readonly onPage?: (request: number, pages: number, rows: number) => void;
}

export interface SideRequest {
  readonly summary: SideSummary;
  /** The rows file (NDJSON); absent when no response came. */
  readonly rowsFile?: string;
  /** The operation's identifying field, where the contract names one. */
  readonly recordKey?: string;
  readonly method: string;
  /** Redacted. */
  readonly url: string;
}

/**
 * Sends request `index` of the plan on this side; its rows go to `<dir>/<index>.ndjson`, told to `rows`
 * page by page as they are kept (compared while the walk goes: compareWalking).
 */
export function sideRunner(options: SideOptions, dir: string): (item: PlannedRequest, index: number, rows?: GrowingFile) => Promise<SideRequest> {
  const name = options.environment.name;
  // Each side's secrets go only to its own environment's origins (the send boundary's guard, per side).
  const { guard } = options;
  const ports: ExchangePorts = { ...options.ports, guard };
  const credentials = new CredentialService(options.environment, {
    secrets: options.secretStore,
    bindings: guard,
    send: (request) => ports.http.send(request, sendOptionsOf({ timeoutMs: options.timeoutMs, guard, ...(options.insecureTokenEndpoint ? { rejectUnauthorized: false } : {}) })),
    signInOnDemand: true,
    missingSecretHint: (authId, field) => options.variables.hint(authId, field, name),
  });
  return async (item, index, rows) => {
    const rowsFile = join(dir, `${index}.ndjson`);
    const opened = await openOutputSink(rowsFile, 'ndjson', () => options.secrets);
    const sink = rows ? keepingSink(opened, rows, rowsFile) : opened;
    try {
      const side = await runSideExchange({
        file: item.parsed,
        requestIndex: item.node.index,
        prepare: {
          environment: options.environment,
          credentials,
          responses: new Map(),
          dynamic: dynamicVariables(),
          readInclude: bodyFileReader(item.file),
        },
        allPages: options.allPages,
        ...(options.maxPages ? { maxPages: options.maxPages } : {}),
        sink,
        onSecrets: (values) => {
          options.redactor.addKnownSecrets(values);
          for (const value of values) if (!options.secrets.includes(value)) options.secrets.push(value);
        },
        ...(options.signal ? { signal: options.signal } : {}),
        onPage: (pages, rows) => options.onPage?.(index, pages, rows),
        redact: (text) => options.redactor.text(text),
      }, ports);
      return {
        summary: side.summary,
        ...(side.responded ? { rowsFile } : {}),
        ...(side.recordKey ? { recordKey: side.recordKey } : {}),
        method: item.node.requestLine.method,
        url: options.redactor.url(side.url ?? item.node.requestLine.url),
      };
    } finally {
      await sink.close();
    }
  };
}
