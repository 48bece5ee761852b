// Generate code: a request of a .http file as a snippet (snippet.ts, through httpsnippet) or, for an
// operation with a paging style, as a paging loop in TypeScript or Python (paging/), generated from the
// style's strategy. Both read secrets from the environment variables apiwb run reads them from; the request they
// print is searched for every secret value the caller knows before anything is printed.
import type { Catalog } from '../catalog';
import type { HttpFile } from '../httpfile';
import { createStrategy } from '../paging/strategies';
import { pagingPlanFor } from '../run/pagingPlan';
import { followsRedirects } from '../httpfile/directives';
import { pathOf } from '../http/url';
import { citationsAsText } from '../reference';
import { dynamicVariables } from '../run/dynamicVariables';
import { clampToContract } from '../run/caps';
import type { Operation } from '../catalog';
import type { Environment } from '../env/model';
import { SecretVariables } from '../secrets/secretVariables';
import { assertNoSecret, codegenRequest, CodegenError, type CodegenRequest } from './request';
import { requestSnippet, SNIPPET_LANGUAGES } from './snippet';
import { typescriptLoop } from './paging/typescript';
import { pythonLoop } from './paging/python';

export { CodegenError } from './request';
export { SNIPPET_LANGUAGES } from './snippet';

export const PAGING_LANGUAGES = [
  { id: 'ts', label: 'TypeScript (Node 18+)', languageId: 'typescript' },
  { id: 'python', label: 'Python 3 (standard library)', languageId: 'python' },
] as const;

export interface GenerateInput {
  readonly file: HttpFile;
  readonly requestIndex: number;
  readonly environment: Environment;
  /**
   * Every environment of the env file (`environment` among them): the variable the code reads a secret
   * from is the one apiwb run reads, and an auth id another one writes alike in a name reads none.
   */
  readonly allEnvironments: readonly Pick<Environment, 'name' | 'auth'>[];
  readonly catalog: Catalog;
  readonly readInclude: (path: string, encoding?: string, strict?: boolean) => Promise<string>;
  /** Every secret value the caller holds: none may appear in the code. */
  readonly knownSecrets: Iterable<string>;
}

export interface GeneratedCode {
  readonly code: string;
  /** The editor's language id for an untitled document. */
  readonly languageId: string;
  /** What the code does not do as the request says (a snippet's # @no-redirect it cannot keep): for stderr. */
  readonly notices?: readonly string[];
}

/** The request as apiwb run sends it: made ready, then clamped to the contract's caps (each clamp said). */
async function prepared(input: GenerateInput): Promise<{ request: CodegenRequest; operation?: Operation; notices: string[] }> {
  const variables = new SecretVariables(input.allEnvironments);
  const made = await codegenRequest(input.file, input.requestIndex, { environment: input.environment, variables, readInclude: input.readInclude, dynamic: dynamicVariables({ env: { refused: 'generated code never carries a secret, and a value of the process environment is one: nothing was read' } }) });
  const operation = input.catalog.match(made.request.method, pathOf(made.request.url));
  const clamped = clampToContract(made.request, operation);
  assertNoSecret(clamped.request, input.knownSecrets);
  return { request: { ...made, request: clamped.request }, ...(operation ? { operation } : {}), notices: clamped.notices };
}

function operationLines(op: Operation | undefined): string[] {
  if (!op) return ['The request matches no operation of the contracts.'];
  const where = citationsAsText(`seed ${op.source.seed} §${op.source.section}`);
  const inferred = op.pathStatus === 'inferred' ? '; its path is inferred, the contract does not publish it' : '';
  return [`Operation ${op.service}/${op.family}/${op.name} (${where}${inferred}).`];
}

export async function generateSnippet(input: GenerateInput, languageId: string): Promise<GeneratedCode> {
  const { request, operation, notices } = await prepared(input);
  const snippet = requestSnippet(request, languageId, [...operationLines(operation), ...notices]);
  return { code: snippet.code, languageId: snippet.language.languageId, notices: snippet.notices };
}

export async function generatePagingLoop(input: GenerateInput, languageId: string): Promise<GeneratedCode> {
  const language = PAGING_LANGUAGES.find((l) => l.id === languageId);
  if (!language) throw new CodegenError(`a paging loop is generated in ${PAGING_LANGUAGES.map((l) => l.id).join(' or ')}, not '${languageId}'`);
  const { request, operation, notices } = await prepared(input);
  const { method, url } = request.request;
  const lookup = pagingPlanFor(request.request, request.directives, input.catalog, operation);
  if (!lookup.ok) throw new CodegenError(lookup.error);
  const plan = lookup.plan;
  const loop = plan ? createStrategy(plan.style, plan.options).loop : undefined;
  if (!plan || !loop) {
    const style = plan ? `its paging style is ${plan.style}` : 'it has no paging style (no # @paging directive and no catalog operation with one)';
    throw new CodegenError(`no paging loop for ${request.name ?? `${method} ${url}`}: ${style}; loops are generated for page-number, page-headers, offset-remaining, batch-cursor, export-ordinal and stateful-extraction`);
  }
  const loopInput = { loop, request: request.request, secrets: request.secrets, notices, followRedirects: followsRedirects(request.directives), ...(operation ? { operation } : {}), ...(request.name ? { requestName: request.name } : {}) };
  const code = language.id === 'ts' ? typescriptLoop(loopInput) : pythonLoop(loopInput);
  return { code, languageId: language.languageId };
}

/** Every --lang id of snippets, for help texts and pickers. */
export const SNIPPET_IDS: readonly string[] = SNIPPET_LANGUAGES.map((l) => l.id);
