// The two sides of `apiwb compare` over requests, made ready before anything is sent: which environment
// each side is (or the recorded baseline side A reads back), the plan, every request checked on every
// live side (exit 2, naming file:line), and a runner per live side with its own network — opened by
// runNetwork.ts as `apiwb run` opens its own, from the flags and THAT side's environment (its "Proxy",
// "CA Bundle", "SSLConfiguration") — its own credentials and its own guard (sideRun.ts).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_SERVICES, createCatalog, type Catalog } from '../../core/catalog';
import { parseEnvFile } from '../../core/env/loadEnvFile';
import type { Environment } from '../../core/env/model';
import { selectEnvironment } from '../../core/env/session';
import { RunFiles } from '../../core/files/outputs';
import { readOverlayFile, withOverlay } from '../../core/openapi';
import type { Redactor } from '../../core/secrets/redact';
import { EnvironmentSecretStore, secretValuesFromEnvironment } from '../nodePorts/envSecretStore';
import { collectRequestFiles, findEnvFile, InputError } from '../nodePorts/files';
import { createProgress, progressText } from '../reporters/progress';
import { checkBeforeSending, planRequests, requestInputError, shownPath, type PlannedRequest } from '../runPlan';
import { openRunNetwork, type RunNetwork } from '../runNetwork';
import { baselineExists, readBaseline, type BaselineRequest } from '../../core/compare/baseline';
import type { CompareOptions } from './compareArgs';
import { sideRunner, type SideRequest } from './sideRun';

export interface CompareIo {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export type RunSide = (item: PlannedRequest, index: number) => Promise<SideRequest>;

export interface RequestSides {
  readonly plan: readonly PlannedRequest[];
  readonly labels: readonly { readonly where: string; readonly label: string }[];
  /** Side A live (two environments, or the run that records a baseline). */
  readonly runA?: RunSide;
  /** Side B live (absent while recording a baseline). */
  readonly runB?: RunSide;
  /** Side A read back from --baseline DIR. */
  readonly baseline?: readonly BaselineRequest[];
  /** This run writes the baseline (DIR does not exist yet). */
  readonly recording: boolean;
  readonly environmentA?: Environment;
  readonly progress: ReturnType<typeof createProgress>;
  close(): Promise<void>;
}

export async function openRequestSides(o: CompareOptions, io: CompareIo, redactor: Redactor, dir: string, inputs: RunFiles): Promise<RequestSides> {
  const files = collectRequestFiles(o.paths);
  const envPath = findEnvFile(o.envFile, files[0]);
  const envFile = parseEnvFile(readFileSync(envPath, 'utf8'), shownPath(envPath));
  const recording = o.mode === 'baseline' && o.baseline !== undefined && !baselineExists(o.baseline);
  const envA = o.mode === 'environments' || recording ? selectEnvironment(envFile, o.env ?? '') : undefined;
  const envB = o.mode === 'environments' ? selectEnvironment(envFile, o.against ?? '') : recording ? undefined : selectEnvironment(envFile, o.env ?? '');
  const plan = planRequests(files, o.name).requests.map((p) => ({ ...p, readLater: false }));
  const catalog = catalogOf(o.overlays);
  // Both sides send every request: one that cannot be sent is an input error of the comparison (exit 2).
  for (const environment of [envA, envB]) {
    if (!environment) continue;
    for (const item of plan) {
      const checked = checkBeforeSending(item, environment, o.allPages, catalog, new Map(), new Map(), inputs);
      if (checked.problem !== undefined) throw requestInputError(item, checked.problem);
    }
  }
  const labels = plan.map((p) => ({ where: p.where, label: p.node.name ?? p.where }));
  const baseline = o.mode === 'baseline' && !recording && o.baseline ? readBaseline(o.baseline, labels, o.allPages) : undefined;
  const secrets = secretValuesFromEnvironment(io.env);
  const progress = createProgress(io.stderr);
  const networks: RunNetwork[] = [];
  const side = async (environment: Environment, name: string): Promise<RunSide> => {
    const network = await openRunNetwork(o, environment, envPath, { ...io, command: 'apiwb compare' }, new EnvironmentSecretStore(io.env, environment.name), redactor);
    networks.push(network);
    for (const value of network.secretValues) if (!secrets.includes(value)) secrets.push(value);
    mkdirSync(join(dir, name), { recursive: true });
    return sideRunner({
      environment, allPages: o.allPages, ...(o.maxPages ? { maxPages: o.maxPages } : {}), timeoutMs: o.timeoutMs, insecureTokenEndpoint: o.insecureTokenEndpoint,
      env: io.env, redactor, secrets,
      ports: { http: network.http, catalog, timeoutMs: o.timeoutMs, ...(o.insecure ? { rejectUnauthorized: false } : {}) },
      onPage: (i, pages, rows) => { if (progress.visible) progress.update(progressText(i, plan.length, labels[i]!.label, `${name} · page ${pages} · ${rows} rows`)); },
    }, join(dir, name));
  };
  const close = async (): Promise<void> => { await Promise.all(networks.map((n) => n.close())); };
  try {
    const runA = envA ? await side(envA, 'a') : undefined;
    const runB = envB ? await side(envB, 'b') : undefined;
    return {
      plan, labels, recording, progress, close,
      ...(runA ? { runA } : {}), ...(runB ? { runB } : {}), ...(baseline ? { baseline } : {}), ...(envA ? { environmentA: envA } : {}),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function catalogOf(overlays: readonly string[]): Catalog {
  return createCatalog(withOverlay(CONTRACT_SERVICES, overlays.map((path) => {
    try {
      return readOverlayFile(readFileSync(path, 'utf8'), path);
    } catch (error) {
      throw new InputError(`--overlay ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  })));
}
