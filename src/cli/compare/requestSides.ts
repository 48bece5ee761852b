// The two sides of `apiwb compare` over requests, made ready before anything is sent: which environment
// each side is (or the recorded baseline side A reads back), the plan, every request checked on every
// live side (exit 2, naming file:line), and a runner per live side with its own network — opened by
// runNetwork.ts as `apiwb run` opens its own, from the flags and THAT side's environment (its "Proxy",
// "CA Bundle", "SSLConfiguration") — its own credentials and its own guard (sideRun.ts). Each side's
// environment is read as `apiwb run` reads its own (loadRunEnvironment, privateEnvRun.ts): the env file
// with http-client.private.env.json layered over it, its private values secrets bound to THAT side's
// origins and serving its sign-in after the APIWB_SECRET_* variables.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../core/catalog';
import type { Environment } from '../../core/env/model';
import { SecretBindings } from '../../core/secrets/bindings';
import { terminalSafe } from '../../core/text/terminalText';
import { RunFiles } from '../../core/files/outputs';
import type { Redactor } from '../../core/secrets/redact';
import { bindEnvironmentSecrets, EnvironmentSecretStore, secretValuesFromEnvironment } from '../nodePorts/envSecretStore';
import { loadRunEnvironment, type RunEnvironment } from '../privateEnvRun';
import { collectRequestFiles, findEnvFile, shownPath } from '../nodePorts/files';
import { createProgress, progressText } from '../reporters/progress';
import { catalogOf, checkPlan, planRequests, requestInputError, type PlannedRequest } from '../runPlan';
import { InputError } from '../nodePorts/files';
import { sayBeforeRun, setAsideNotRun } from '../notRun';
import { openRunNetwork, type RunNetwork } from '../runNetwork';
import { BaselineError, baselineExists, claimBaseline, readBaseline, type BaselineRequest, type ClaimedBaseline } from '../../core/compare/baseline';
import type { GrowingFile } from '../../core/compare/growingFile';
import type { CompareOptions } from './compareArgs';
import { sideRunner, type SideRequest } from './sideRun';
import { faultText } from '../../core/text/faultText';

export interface CompareIo {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** `rows`: told of the rows file as the walk keeps its pages. */
export type RunSide = (item: PlannedRequest, index: number, rows?: GrowingFile) => Promise<SideRequest>;

export interface RequestSides {
  readonly plan: readonly PlannedRequest[];
  readonly labels: readonly { readonly where: string; readonly label: string }[];
  /** Side A live (two environments, or the run that records a baseline). */
  readonly runA?: RunSide;
  /** Side B live (absent while recording a baseline). */
  readonly runB?: RunSide;
  /** Side A read back from --baseline DIR. */
  readonly baseline?: readonly BaselineRequest[];
  /** This run writes the baseline (DIR holds none yet): its files, claimed before anything is sent. */
  readonly recording?: ClaimedBaseline;
  readonly environmentA?: Environment;
  readonly progress: ReturnType<typeof createProgress>;
  close(): Promise<void>;
}

/** Both sides send every request: one that cannot be sent is an input error of the comparison (exit 2). */
function checkEverySide(plan: readonly PlannedRequest[], environments: readonly (Environment | undefined)[], allPages: boolean, catalog: Catalog, inputs: RunFiles): void {
  for (const environment of environments) {
    if (!environment) continue;
    const checks = checkPlan(plan, environment, allPages, catalog, inputs);
    const failed = checks.findIndex((checked) => checked.problem !== undefined);
    if (failed >= 0) throw requestInputError(plan[failed]!, checks[failed]!.problem!);
  }
}

/**
 * The requests compared, set aside and said as `apiwb run` sets aside and says its own (notRun.ts): the
 * parser's diagnostics said first, a `# @disabled` request not sent on either side, and a request neither
 * side could send (a refusing directive, an unreadable block) an input error of the comparison (exit 2).
 */
function comparedRequests(whole: ReturnType<typeof planRequests>, environments: readonly (Environment | undefined)[], wholeFiles: boolean, io: CompareIo): PlannedRequest[] {
  sayBeforeRun(whole.requests, 'apiwb compare', io.stderr);
  let requests = whole.requests;
  for (const environment of environments) {
    if (!environment) continue;
    const { notRun, requests: kept } = setAsideNotRun({ ...whole, requests }, environment.variables, wholeFiles);
    const first = notRun[0];
    if (first) throw new InputError(first.problem ?? 'not run', { file: first.notRunRequest.file, line: first.notRunRequest.line });
    requests = kept;
  }
  return requests.map((p) => ({ ...p, readLater: false }));
}

export async function openRequestSides(o: CompareOptions, io: CompareIo, redactor: Redactor, dir: string, inputs: RunFiles): Promise<RequestSides> {
  const files = collectRequestFiles(o.paths);
  const envPath = findEnvFile(o.envFile, files);
  const recording = o.mode === 'baseline' && o.baseline !== undefined && !baselineExists(o.baseline);
  // A warning about the private file (git would commit it) is said once, not once a side.
  const warned = new Set<string>();
  const load = (name: string): Promise<RunEnvironment> => loadRunEnvironment(envPath, name, {
    shown: shownPath, redactor,
    warn: (line) => { if (!warned.has(line)) io.stderr.write(`apiwb compare: ${terminalSafe(line)}\n`); warned.add(line); },
  });
  const runA = o.mode === 'environments' || recording ? await load(o.env ?? '') : undefined;
  const runB = o.mode === 'environments' ? await load(o.against ?? '') : recording ? undefined : await load(o.env ?? '');
  const [envA, envB] = [runA?.environment, runB?.environment];
  const plan = comparedRequests(planRequests(files, o.name), [envA, envB], o.name === undefined, io);
  const catalog = catalogOf(o.overlays);
  checkEverySide(plan, [envA, envB], o.allPages, catalog, inputs);
  const labels = plan.map((p) => ({ where: p.where, label: p.node.name ?? p.where }));
  const baseline = o.mode === 'baseline' && !recording && o.baseline ? readBaseline(o.baseline, labels, o.allPages) : undefined;
  const claimed = recording && o.baseline ? claimBaselineOf(o.baseline, plan.length, inputs) : undefined;
  const secrets = secretValuesFromEnvironment(io.env);
  const progress = createProgress(io.stderr);
  const networks: RunNetwork[] = [];
  const side = async (run: RunEnvironment, name: string): Promise<RunSide> => {
    const { environment, privateValues } = run;
    // The side's secrets and where they may go, bound before anything is sent: the send boundary's.
    const guard = new SecretBindings();
    for (const line of bindEnvironmentSecrets(guard, io.env, environment, run.variables)) io.stderr.write(`apiwb compare: ${terminalSafe(line)}\n`);
    const secretStore = run.secure(guard, new EnvironmentSecretStore(io.env, environment.name, run.variables));
    const network = await openRunNetwork(o, environment, envPath, { ...io, command: 'apiwb compare' }, secretStore, redactor, inputs);
    networks.push(network);
    for (const value of [...privateValues, ...network.secretValues]) if (!secrets.includes(value)) secrets.push(value);
    mkdirSync(join(dir, name), { recursive: true });
    return sideRunner({
      environment, guard, secretStore, variables: run.variables, allPages: o.allPages, ...(o.maxPages ? { maxPages: o.maxPages } : {}), timeoutMs: o.timeoutMs, insecureTokenEndpoint: o.insecureTokenEndpoint,
      env: io.env, redactor, secrets,
      ports: { http: network.http, catalog, timeoutMs: o.timeoutMs, ...(o.insecure ? { rejectUnauthorized: false } : {}) },
      onPage: (i, pages, rows) => { if (progress.visible) progress.update(progressText(i, plan.length, labels[i]!.label, `${name} · page ${pages} · ${rows} rows`)); },
    }, join(dir, name));
  };
  const close = async (): Promise<void> => { await Promise.all(networks.map((n) => n.close())); };
  try {
    const sideA = runA ? await side(runA, 'a') : undefined;
    const sideB = runB ? await side(runB, 'b') : undefined;
    return {
      plan, labels, progress, close, ...(claimed ? { recording: claimed } : {}),
      ...(sideA ? { runA: sideA } : {}), ...(sideB ? { runB: sideB } : {}), ...(baseline ? { baseline } : {}), ...(envA ? { environmentA: envA } : {}),
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The baseline's files claimed as outputs (a refusal is an input fault: exit 2, nothing sent). */
function claimBaselineOf(dir: string, requests: number, inputs: RunFiles): ClaimedBaseline {
  try {
    return claimBaseline(dir, requests, inputs);
  } catch (error) {
    throw new BaselineError(faultText(error));
  }
}
