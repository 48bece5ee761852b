// Loads and validates an http-client.env.json. Pure: takes the text and a path for messages; the file
// system stays in the adapters (extension, CLI). Errors name the file, the environment, the key and,
// where the text tells us, the line and column.
import { citationLabel } from '../reference';
import { findNodeAtLocation, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { secretEnvVarName } from '../secrets/secretStore';
import type { AuthEntry, EnvFile, Environment } from './model';
import { EnvFileError } from './model';
import { envFileSchema, environmentSchema, passwordGrantFieldsSchema } from './schema';
import { findSecretsInEnvironment } from './secretCheck';
import { substituteVariables } from './templates';
import { environmentNetwork } from './networkConfig';
import { jsonTextTooDeep, tooDeepText } from '../json/depth';
import type { PrivateEnvLayer } from './privateEnvLayer';
import { scalarText } from '../text/scalarText';
import { jsonText } from '../json/numberText';
import { treeValue } from '../json/treeValue';
import { faultText } from '../text/faultText';

export const ENV_FILE_NAME = 'http-client.env.json';

/**
 * An env file holds variables and auth entries, a few kilobytes. Past this size it is refused before
 * it is parsed: a 50 MB file would take seconds and most of a gigabyte to read into a tree.
 */
export const MAX_ENV_FILE_LENGTH = 5_000_000;

/** Environment holding variables every other environment inherits (JetBrains and httpYac convention). */
const SHARED = '$shared';

/** Where a JSON path of an env file's text starts: its line and column (empty when the path is not there). */
type Locate = (path: readonly (string | number)[]) => { line?: number; column?: number };

/**
 * THE reading of an env file's text (the shared one and the private one): refused past its size, its
 * depth measured before it is walked, and a syntax error located by line and column, naming the file.
 */
export function readEnvJson(text: string, file: string): { readonly raw: unknown; readonly locate: Locate } {
  if (text.length > MAX_ENV_FILE_LENGTH) {
    throw new EnvFileError(`the file is ${(text.length / 1_000_000).toFixed(1)} MB; an env file holds variables and auth entries, and API Workbench reads env files up to ${MAX_ENV_FILE_LENGTH / 1_000_000} MB`, { file });
  }
  const tooDeep = jsonTextTooDeep(text);
  if (tooDeep) throw new EnvFileError(`the JSON ${tooDeepText(tooDeep.limit)}`, { file, ...lineColumn(text, tooDeep.offset) });
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  const locate: Locate = (path) => {
    const node = tree && findNodeAtLocation(tree, [...path]);
    return node ? lineColumn(text, node.parent?.type === 'property' ? node.parent.offset : node.offset) : {};
  };
  const first = errors[0];
  if (first || !tree) {
    const at = first ? lineColumn(text, first.offset) : { line: 1, column: 1 };
    throw new EnvFileError(`not valid JSON (${first ? printParseErrorCode(first.error) : 'empty file'})`, { file, ...at });
  }
  // Its numbers as written: a value is sent as its text, never as a double's (treeValue, NumberText).
  return { raw: treeValue(tree, text), locate };
}

/**
 * `privateLayer`: JetBrains' http-client.private.env.json beside it (privateEnvLayer.ts): its values
 * override this file's for the same environment, and its environments are environments too.
 */
export function parseEnvFile(text: string, file: string, privateLayer?: PrivateEnvLayer): EnvFile {
  const { raw, locate } = readEnvJson(text, file);

  const top = envFileSchema.safeParse(raw);
  if (!top.success) throw zodError(top.error, file, undefined, [], locate);

  // Each environment is parsed once: its auth entries are read from this parse when it is built.
  const checked = new Map<string, ParsedEnvironment>();
  for (const [env, body] of Object.entries(top.data)) {
    const secret = findSecretsInEnvironment(env, body)[0];
    if (secret) {
      throw new EnvFileError(secretAdvice(secret.path), { file, env, key: secret.path.join('.'), ...locate([env, ...secret.path]) });
    }
    const parsed = environmentSchema.safeParse(body);
    if (!parsed.success) throw zodError(parsed.error, file, env, [env], locate);
    checked.set(env, { raw: body, parsed: parsed.data });
  }

  const none: ParsedEnvironment = { raw: {}, parsed: {} };
  const shared = checked.get(SHARED) ?? none;
  const names = Object.keys(top.data).filter((name) => name !== SHARED);
  for (const name of privateLayer?.names ?? []) if (!names.includes(name)) names.push(name);
  const environments: Record<string, Environment> = {};
  for (const name of names) {
    environments[name] = buildEnvironment(name, shared, checked.get(name) ?? none, file, locate, privateLayer);
  }
  return { path: file, names, environments };
}

/** An environment's object as written (its variables) and as environmentSchema parsed it (its auth entries). */
interface ParsedEnvironment {
  readonly raw: Record<string, unknown>;
  readonly parsed: z.infer<typeof environmentSchema>;
}

function buildEnvironment(
  name: string,
  shared: ParsedEnvironment,
  own: ParsedEnvironment,
  file: string,
  locate: Locate,
  privateLayer?: PrivateEnvLayer,
): Environment {
  const variables: Record<string, string> = {};
  for (const { raw } of [shared, own]) Object.assign(variables, variablesOf(raw));
  // The private file's values override the shared file's (its $shared, then the environment's own).
  const privateValues = privateLayer?.variablesOf(name) ?? {};
  Object.assign(variables, privateValues);
  const resolve = (text: string | undefined, key: string): string | undefined => {
    if (text === undefined) return undefined;
    try {
      return substituteVariables(text, variables);
    } catch (error) {
      throw new EnvFileError(faultText(error), { file, env: name, key });
    }
  };

  const auth: Record<string, AuthEntry> = {};
  for (const { parsed } of [shared, own]) {
    for (const [id, entry] of Object.entries(parsed.Security?.Auth ?? {})) {
      if (entry['Grant Type'].toLowerCase() !== 'password') {
        auth[id] = {
          id, kind: 'unsupported', section: 'Security.Auth',
          unsupportedReason: `grant type '${entry['Grant Type']}' is not used by these services; the engagement service signs in with the Password grant (${citationLabel({ seed: '000', section: '5.1' })})`,
        };
        continue;
      }
      const fields = passwordGrantFieldsSchema.safeParse(entry);
      if (!fields.success) throw zodError(fields.error, file, name, [name, 'Security', 'Auth', id], locate);
      auth[id] = {
        id, kind: 'password-grant', section: 'Security.Auth',
        tokenUrl: resolve(fields.data['Token URL'], `Security.Auth.${id}.Token URL`), username: resolve(fields.data.Username, `Security.Auth.${id}.Username`),
      };
    }
    for (const [id, entry] of Object.entries(parsed.ApiWorkbench?.Auth ?? {})) {
      auth[id] = entry.Type === 'JWT Bearer'
        ? { id, kind: 'jwt-bearer', section: 'ApiWorkbench.Auth' }
        : {
            id, kind: 'basic-api-key', section: 'ApiWorkbench.Auth',
            permissionName: resolve(entry['Permission Name'], `ApiWorkbench.Auth.${id}.Permission Name`),
            tenantCode: resolve(entry['Tenant Code'], `ApiWorkbench.Auth.${id}.Tenant Code`),
          };
    }
  }
  const network = environmentNetwork([shared.raw, own.raw], variables, { file, env: name });
  const privateVariables = Object.keys(privateValues);
  return {
    name, variables, auth,
    ...(network ? { network } : {}),
    ...(privateLayer && privateVariables.length > 0 ? { privateVariables, privateFile: privateLayer.file } : {}),
  };
}

/** An environment object's variables as strings: its sections (auth, certificates) are not variables. */
export function variablesOf(raw: Readonly<Record<string, unknown>>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'Security' || key === 'ApiWorkbench' || key === 'SSLConfiguration') continue;
    if (value === null || value === undefined) continue;
    variables[key] = typeof value === 'object' ? jsonText(value)! : scalarText(value);
  }
  return variables;
}

function secretAdvice(path: readonly string[]): string {
  const [section, auth, id, field] = path;
  const envVar = (section === 'Security' || section === 'ApiWorkbench') && auth === 'Auth' && id && field
    ? secretEnvVarName(id, field)
    : 'APIWB_SECRET_<AUTH ID>_<FIELD>';
  return 'holds a secret value, and env files are committed: remove it. Secrets belong in the credential store ' +
    `(VS Code: the Sign In / Set Basic Credentials / Paste Bearer Token commands; CLI: the environment variable ${envVar}). ` +
    'Use a {{variable}} or leave the field out.';
}

export function zodError(
  error: z.ZodError,
  file: string,
  env: string | undefined,
  prefix: readonly (string | number)[],
  locate: Locate,
): EnvFileError {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).filter((p): p is string | number => typeof p !== 'symbol');
  const full = [...prefix, ...path];
  const key = full.slice(1).join('.');
  const envName = env ?? (typeof full[0] === 'string' ? full[0] : undefined);
  return new EnvFileError(issue?.message ?? 'invalid', {
    file,
    ...(envName === undefined ? {} : { env: envName }),
    ...(key ? { key } : {}),
    ...locate(full),
  });
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
