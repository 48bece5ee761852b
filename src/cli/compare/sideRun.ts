// One side of `apiwb compare`: the planned requests, in order, sent in ONE environment through the
// core's exchange (as `apiwb run` sends them), each request's rows streamed to a file of its own
// (every page with --all-pages, through the redacting sink: no secret on disk). A side has its own
// credential service and secret store (its environment's APIWB_SECRET_<ENV>__… variables first), so a
// token signed in for one side is never offered to the other side's origins.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { CredentialService } from '../../core/auth/credentials';
import type { Environment } from '../../core/env/model';
import { CONTRACT_STEP, contractDriftStep } from '../../core/contract';
import type { SideSummary } from '../../core/compare/requestComparison';
import { httpClient } from '../../core/http/client';
import { dynamicVariables } from '../../core/run/dynamicVariables';
import { runExchange, type ExchangePorts, type ExchangeResult } from '../../core/run/exchange';
import type { Redactor } from '../../core/secrets/redact';
import { secretEnvVarName, environmentSecretEnvVarName } from '../../core/secrets/secretStore';
import { EnvironmentSecretStore } from '../nodePorts/envSecretStore';
import { openOutputSink } from '../reporters/outputSink';
import type { PlannedRequest } from '../runCommand';

export interface SideOptions {
  readonly environment: Environment;
  readonly allPages: boolean;
  readonly maxPages?: number;
  readonly timeoutMs: number;
  readonly insecure: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly ports: ExchangePorts;
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

/** Sends request `index` of the plan on this side; its rows go to `<dir>/<index>.ndjson`. */
export function sideRunner(options: SideOptions, dir: string): (item: PlannedRequest, index: number) => Promise<SideRequest> {
  const name = options.environment.name;
  const credentials = new CredentialService(options.environment, {
    secrets: new EnvironmentSecretStore(options.env, name),
    send: (request) => httpClient.send(request, { timeoutMs: options.timeoutMs, ...(options.insecure ? { rejectUnauthorized: false } : {}) }),
    signInOnDemand: true,
    missingSecretHint: (authId, field) => `set the environment variable ${environmentSecretEnvVarName(name, authId, field)} or ${secretEnvVarName(authId, field)}`,
  });
  return async (item, index) => {
    const rowsFile = join(dir, `${index}.ndjson`);
    const sink = await openOutputSink(rowsFile, 'ndjson', () => options.secrets);
    let result: ExchangeResult;
    try {
      result = await runExchange({
        file: item.parsed,
        requestIndex: item.node.index,
        onSecrets: (values) => {
          options.redactor.addKnownSecrets(values);
          for (const value of values) if (!options.secrets.includes(value)) options.secrets.push(value);
        },
        prepare: {
          environment: options.environment,
          credentials,
          responses: new Map(),
          dynamic: dynamicVariables(),
          readInclude: (path) => readFile(resolvePath(dirname(item.file), path), 'utf8'),
        },
        pages: options.allPages ? 'all' : 'first',
        continuable: false,
        steps: [contractDriftStep('warning')],
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.allPages ? {
          walk: {
            sink,
            ...(options.maxPages ? { maxPages: options.maxPages } : {}),
            onPage: (event) => options.onPage?.(index, event.progress.pages, event.progress.rows),
          },
        } : {}),
      }, options.ports);
      // A single response's rows are kept by the exchange: they go to the file as they are.
      if (!options.allPages && result.rows && result.rows.items.length > 0) await sink.writePage(result.rows.items);
    } finally {
      await sink.close();
    }
    return {
      summary: summaryOf(result, options),
      ...(result.response ? { rowsFile } : {}),
      ...(result.operation?.recordKey ? { recordKey: result.operation.recordKey.field } : {}),
      method: item.node.requestLine.method,
      url: options.redactor.url(result.request?.url ?? item.node.requestLine.url),
    };
  };
}

function summaryOf(result: ExchangeResult, options: Pick<SideOptions, 'redactor' | 'allPages'>): SideSummary {
  const failures = result.business?.failures ?? [];
  const walk = options.allPages ? result.walk?.verdict : undefined;
  const problem = result.response ? undefined : result.problem;
  return {
    ...(result.response ? { status: result.response.status } : {}),
    ...(problem ? { problem: options.redactor.text(problem) } : {}),
    business: result.business?.failed ? 'failed' : 'ok',
    errorCodes: failures.map((f) => (f.code === undefined ? options.redactor.text(f.message) : String(f.code))),
    ...(walk ? { walk } : {}),
    ...(result.rows ? { rows: result.rows.count } : {}),
    drift: result.findings.filter((f) => f.step === CONTRACT_STEP && f.severity !== 'note').map((f) => options.redactor.text(f.message)),
  };
}
