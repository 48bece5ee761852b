// The request that generated code sends: the .http request made ready exactly as `apiwb run` makes it
// ready (prepareRequest: variables, directives, `< file` bodies), except that no secret is fetched.
// Each {{$auth.token("id")}} becomes a marker that every printer turns into a read of the environment
// variable `apiwb run` reads it from (SecretVariables.plainVariable(id, 'token'): APIWB_SECRET_<AUTH ID>_TOKEN),
// with a comment saying how to make its value. An id whose variable apiwb run does not read (another auth
// id of the env file writes it alike, or it could be an environment's own name) is refused, in its words. A credential written literally in any part of the request
// (literalCredentials: the URL's password, headers, query, body fields) is refused: the code would carry
// it. The request made ready is then searched for every secret value the caller knows, before printing.
import { CredentialService } from '../auth/credentials';
import { authEntryOf, type AuthEntry, type Environment } from '../env/model';
import type { HttpRequest } from '../http/types';
import type { HttpFile } from '../httpfile';
import { requestAt, type DynamicVariableResolver } from '../httpfile/resolve';
import { prepareRequest } from '../run/prepareRequest';
import { citationsAsText } from '../reference';
import { partWords, SecretBindings } from '../secrets/bindings';
import { MemorySecretStore } from '../secrets/secretStore';
import type { SecretVariables } from '../secrets/secretVariables';
import { literalCredentials } from '../secrets/literalCredentials';
import { JWT_ANYWHERE } from '../secrets/vocabulary';

/** A secret the generated code reads from the environment. */
export interface SecretInput {
  /** Stands in the request's texts for the value until a printer replaces it. */
  readonly marker: string;
  readonly envVar: string;
  readonly authId: string;
  /** How to make the value, in words (one or more comment lines). */
  readonly howTo: readonly string[];
}

export interface CodegenRequest {
  readonly request: HttpRequest;
  /** The request's `# @name`, when it has one. */
  readonly name?: string;
  readonly directives: Readonly<Record<string, string>>;
  readonly secrets: readonly SecretInput[];
}

export class CodegenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodegenError';
  }
}

/**
 * What stands for {{$auth.token(id)}} until a printer reads its variable: one for each id (its code points in
 * hex, six digits each), never the variable's name, which two ids may share.
 */
const markerOf = (authId: string): string =>
  `__APIWB_SECRET_${[...authId].map((c) => (c.codePointAt(0) ?? 0).toString(16).padStart(6, '0')).join('')}__`;

/** How to make the value of {{$auth.token(id)}} for an entry, in the product's words. */
function secretHowTo(entry: AuthEntry, envVar: string): string[] {
  switch (entry.kind) {
    case 'password-grant':
      return [
        `${envVar}: an access token of '${entry.id}': POST ${entry.tokenUrl ?? '{auth_url}/token'} form-encoded`,
        `  grant_type=password&username=${entry.username ?? '<user>'}&password=<password>, and take access_token`,
        `  (${citationsAsText('seed 000 §5.1')}). It lasts expires_in seconds; there is no refresh token.`,
      ];
    case 'basic-api-key':
      return [
        `${envVar}: base64 of "<permission name>:<service key>" (${citationsAsText('seed 001 §5.1')}):`,
        `  printf '%s' '${entry.permissionName ?? '<permission name>'}:<service key>' | base64`,
      ];
    case 'jwt-bearer':
      return [`${envVar}: the platform identity JWT of '${entry.id}', as pasted (${citationsAsText('seed 001 §5.2')}).`];
    default:
      return [`${envVar}: the value of {{$auth.token("${entry.id}")}}.`];
  }
}

/** Hands out markers in place of secrets: nothing is signed in, read or sent. */
class MarkerCredentials extends CredentialService {
  override token(authId: string): Promise<string> {
    this.entry(authId);
    return Promise.resolve(markerOf(authId));
  }

  override idToken(authId: string): Promise<string> {
    return this.token(authId);
  }
}

const NO_SECRET_IN_CODE = 'generated code never carries a secret';

/**
 * Why the request is refused when it carries a credential written literally rather than referenced (the
 * code would carry it), in any part literalCredentials looks at. The request as written (its references
 * unresolved: a {{variable}} names a value, it is not one), with the body `apiwb run` sends when it comes
 * from a file (`< ./body.json`).
 */
function literalCredential(file: HttpFile, requestIndex: number, sentBody: string | undefined): string | undefined {
  const node = requestAt(file, requestIndex)?.request;
  if (!node) return undefined;
  const url = node.requestLine.url + node.queryContinuations.map((q) => q.text.trim()).join('');
  const body = node.body?.kind === 'inline' ? node.body.text : sentBody;
  const found = literalCredentials({ url, headers: node.headers, ...(body !== undefined ? { body } : {}) })[0];
  if (!found) return undefined;
  if (found.place === 'header') return `the ${found.what.replace(/^header /, '')} header is written literally; ${NO_SECRET_IN_CODE}: write it as {{$auth.token("<auth id>")}} so the code reads it from APIWB_SECRET_<AUTH ID>_TOKEN`;
  const what = found.place === 'userinfo' ? "the URL's password (user:password@)" : `the ${found.what}`;
  return `${what} is written literally; ${NO_SECRET_IN_CODE}, and it reads credentials into headers only: send it in a header as {{$auth.token("<auth id>")}}`;
}

export interface CodegenContext {
  readonly environment: Environment;
  /** Which variable apiwb run reads each secret from, by the env file's names (all its environments). */
  readonly variables: SecretVariables;
  readonly readInclude: (path: string, encoding?: string, strict?: boolean) => Promise<string>;
  readonly dynamic?: DynamicVariableResolver;
}

/** The request at `requestIndex` ready for a printer, or a CodegenError saying why not. */
export async function codegenRequest(file: HttpFile, requestIndex: number, ctx: CodegenContext): Promise<CodegenRequest> {
  const credentials = new MarkerCredentials(ctx.environment, {
    secrets: new MemorySecretStore(),
    send: () => Promise.reject(new Error('generated code signs nothing in')),
  });
  const prepared = await prepareRequest(file, requestIndex, {
    environment: ctx.environment, credentials, responses: new Map(), readInclude: ctx.readInclude,
    ...(ctx.dynamic ? { dynamic: ctx.dynamic } : {}),
  });
  if (!prepared.ok) throw new CodegenError(prepared.problem);
  const literal = literalCredential(file, requestIndex, prepared.request.body);
  if (literal) throw new CodegenError(literal);
  const fromEnvironment = prepared.environmentSecrets[0];
  if (fromEnvironment) throw new CodegenError(`${fromEnvironment} is a secret of the process environment or a .env file; generated code never carries a secret, and nothing was generated`);
  const { request } = prepared;
  const secrets: SecretInput[] = [];
  for (const authId of Object.keys(ctx.environment.auth)) {
    const marker = markerOf(authId);
    const inHeaders = Object.values(request.headers).some((v) => v.includes(marker));
    if (request.url.includes(marker) || request.body?.includes(marker)) {
      throw new CodegenError(`{{$auth.token("${authId}")}} is in the URL or body; generated code reads credentials into headers only`);
    }
    if (!inHeaders) continue;
    const entry = authEntryOf(ctx.environment, authId)!;
    const variable = ctx.variables.plainVariable(authId, 'token');
    if (variable.refused) throw new CodegenError(`{{$auth.token("${authId}")}}: apiwb run does not read ${variable.name} for it (${variable.refused}), so the code could not read it either; nothing was generated`);
    const envVar = variable.name;
    secrets.push({ marker, envVar, authId, howTo: secretHowTo(entry, envVar) });
  }
  return { request, ...(prepared.resolved.name ? { name: prepared.resolved.name } : {}), directives: prepared.resolved.directives, secrets };
}

/**
 * Throws when the request the code sends holds a known secret value or anything shaped like a JWT. Asked
 * of the request made ready, before any printer quotes it, as the send boundary asks it (SecretBindings,
 * every part, plain and encoded): a printer's escapes (`'\''` in shell, `\'` in JavaScript, `''` in
 * PowerShell) are never undone on the printed text, so they would hide a value there.
 */
export function assertNoSecret(request: HttpRequest, knownSecrets: Iterable<string>): void {
  const held = new SecretBindings();
  for (const secret of knownSecrets) held.bind(secret, [], 'a secret value the caller holds');
  const carried = held.carries(request)[0];
  if (carried) throw new CodegenError(`${partWords(carried.part)} of the request holds a secret value; ${NO_SECRET_IN_CODE}, and nothing was generated`);
  const texts = [request.url, ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`), request.body ?? ''];
  if (texts.some((text) => JWT_ANYWHERE.test(text))) throw new CodegenError(`the request holds a JWT; ${NO_SECRET_IN_CODE}, and nothing was generated`);
}
