// "Import REST Client Environments": REST Client's `rest-client.environmentVariables` (user, workspace and
// folder settings, later scopes winning; core/env/restClientEnvironments.ts) written into the workspace's
// http-client.env.json, each variable set in place (the rest of the file kept as written). Values that
// look secret go into SecretStorage for their environment — at this workspace folder and env file, bound
// to the environment's hosts (ScopedSecretStore) — never into the file; `$shared` ones for every
// environment. An environment the env file already has is overwritten only when the user says so. The
// report names environments and variables and counts them, never a value.
import { applyEdits, modify, parse } from 'jsonc-parser';
import * as vscode from 'vscode';
import { ENV_FILE_NAME } from '../../core/env/loadEnvFile';
import { isJsonObject } from '../../core/json/numberText';
import { restClientEnvironments, secretVariableKey } from '../../core/env/restClientEnvironments';
import type { EnvironmentController } from './environmentController';

export interface RestClientEnvironmentsReport {
  readonly file: string;
  /** The settings scopes read. */
  readonly scopes: readonly string[];
  /** Environments written, with how many variables went into the file. */
  readonly written: readonly { readonly environment: string; readonly variables: number }[];
  /** Environments the file had and the user kept as they were. */
  readonly kept: readonly string[];
  /** `<environment>.<name>` of each value put into SecretStorage. No value. */
  readonly secrets: readonly string[];
  readonly skipped: readonly string[];
}

export interface RestClientEnvironmentsOptions {
  /** The answer to "overwrite the environments the env file has?" (tests; the palette asks). */
  readonly overwrite?: boolean;
}

const SHARED = '$shared';

export async function importRestClientEnvironments(environments: EnvironmentController, options: RestClientEnvironmentsOptions = {}): Promise<RestClientEnvironmentsReport | undefined> {
  const inspected = vscode.workspace.getConfiguration('rest-client').inspect('environmentVariables');
  const plan = restClientEnvironments([
    { scope: 'user settings', value: inspected?.globalValue },
    { scope: 'workspace settings', value: inspected?.workspaceValue },
    { scope: 'folder settings', value: inspected?.workspaceFolderValue },
  ]);
  const names = Object.keys(plan.environments);
  if (names.length === 0) {
    void vscode.window.showInformationMessage(`API Workbench: no REST Client environments in your settings (rest-client.environmentVariables)${plan.skipped.length ? `; left out: ${plan.skipped.join('; ')}` : ''}.`);
    return undefined;
  }
  const uri = envFileUri(environments);
  if (!uri) {
    void vscode.window.showWarningMessage(`API Workbench: open a folder first: the environments go into its ${ENV_FILE_NAME}.`);
    return undefined;
  }
  const shown = vscode.workspace.asRelativePath(uri);
  const text = await readText(uri);
  const present = new Set(Object.keys(asObject(parse(text ?? '{}'))));
  const clashing = names.filter((name) => present.has(name));
  let overwrite = options.overwrite;
  if (clashing.length > 0 && overwrite === undefined) {
    const yes = 'Overwrite';
    const no = 'Keep Them as They Are';
    const choice = await vscode.window.showWarningMessage(
      `API Workbench: ${shown} already has ${clashing.map((n) => `'${n}'`).join(', ')}. Overwrite the variables REST Client also sets there?`,
      { modal: true, detail: 'Their other variables and auth entries stay. Keep: only the other environments are imported.' }, yes, no,
    );
    if (choice === undefined) return undefined;
    overwrite = choice === yes;
  }
  const kept = overwrite ? [] : clashing;
  const chosen = names.filter((name) => !kept.includes(name));

  let next = text ?? '{}\n';
  const written: { environment: string; variables: number }[] = [];
  for (const environment of chosen) {
    const variables = Object.entries(plan.environments[environment] ?? {});
    if (!present.has(environment)) next = applyEdits(next, modify(next, [environment], {}, FORMAT));
    for (const [name, value] of variables) next = applyEdits(next, modify(next, [environment, name], value, FORMAT));
    written.push({ environment, variables: variables.length });
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(next));
  await environments.load();

  // Each secret for its environment, a $shared one for every environment of the file; kept at this place, bound to its hosts.
  const secrets: string[] = [];
  for (const secret of plan.secrets.filter((s) => !kept.includes(s.environment))) {
    const targets = secret.environment === SHARED ? (environments.envFile?.names ?? []) : [secret.environment];
    for (const target of targets) await environments.secrets.setAt(environments.scopeOf(target), secretVariableKey(secret.name), secret.value);
    secrets.push(`${secret.environment}.${secret.name}`);
  }
  await environments.refreshSecretVariables();
  environments.notify();

  const report: RestClientEnvironmentsReport = { file: shown, scopes: plan.scopes, written, kept, secrets, skipped: plan.skipped };
  void vscode.window.showInformationMessage(reportWords(report));
  return report;
}

function reportWords(report: RestClientEnvironmentsReport): string {
  const envs = report.written.map((w) => `${w.environment} (${w.variables} variable${w.variables === 1 ? '' : 's'})`).join(', ');
  const secrets = report.secrets.length
    ? ` ${report.secrets.length} value(s) that look secret went into SecretStorage, not the file: ${report.secrets.join(', ')}; remove them from rest-client.environmentVariables in your settings.`
    : '';
  const kept = report.kept.length ? ` Kept as they were: ${report.kept.join(', ')}.` : '';
  const skipped = report.skipped.length ? ` Left out: ${report.skipped.join('; ')}.` : '';
  return `API Workbench: ${report.written.length} REST Client environment(s) from ${report.scopes.join(' and ')} written into ${report.file}: ${envs || 'none'}.${secrets}${kept}${skipped}`;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

/** The env file in use, else http-client.env.json in the first workspace folder (created by the import). */
function envFileUri(environments: EnvironmentController): vscode.Uri | undefined {
  if (environments.envFilePath) return vscode.Uri.file(environments.envFilePath);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, ENV_FILE_NAME) : undefined;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return isJsonObject(value) ? value : {};
}
