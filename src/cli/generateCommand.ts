// `apiwb generate FILE --name REQ --lang LANG [--paging]`: prints the named request as code on stdout,
// a snippet (curl, js-fetch, node, python-requests, python, csharp, java, go, powershell) or, with
// --paging, a paging loop (ts, python). Secrets are never in it: the code reads them from the
// APIWB_SECRET_<AUTH ID>_TOKEN variables apiwb run reads (core/secrets/secretVariables.ts). Exit 0, 1 (nothing could be generated), 2 (usage).
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { bodyFileReader } from './runPlan';
import { parseArgs } from 'node:util';
import { CONTRACT_SERVICES, createCatalog } from '../core/catalog';
import { generatePagingLoop, generateSnippet, PAGING_LANGUAGES, SNIPPET_IDS } from '../core/codegen';
import { parseEnvFile } from '../core/env/loadEnvFile';
import { EnvFileError } from '../core/env/model';
import { selectEnvironment } from '../core/env/session';
import { parseHttpFile } from '../core/httpfile/parser';
import { readOverlayFile, withOverlay } from '../core/openapi';
import { Redactor } from '../core/secrets/redact';
import { terminalSafe } from '../core/text/terminalText';
import { secretValuesFromEnvironment } from './nodePorts/envSecretStore';
import { findEnvFile, InputError } from './nodePorts/files';
import type { Subcommand } from './subcommands';
import { faultText } from '../core/text/faultText';

export const GENERATE_HELP = `Usage: apiwb generate FILE --name REQUEST --lang LANG [--paging] [options]

Prints the request named REQUEST of FILE as code on stdout, resolved against an environment of
http-client.env.json as 'apiwb run' resolves it. Secrets are never written into the code: it reads
each {{$auth.token("ID")}} from the environment variable 'apiwb run' reads it from,
APIWB_SECRET_<ID>_TOKEN (ID upper-cased, non-alphanumerics as _), and its comment names that variable
and says how to make the value. An ID 'apiwb run' reads no variable for (another auth id of the env
file is written alike, such as a-b and a_b) is refused.

Options:
  --name REQUEST      the request's # @name (required)
  --lang LANG         ${SNIPPET_IDS.join(', ')};
                      with --paging: ${PAGING_LANGUAGES.map((l) => l.id).join(', ')}
  --paging            a paging loop for the request's paging style instead of one request: a function
                      named after the operation that walks every page as the walker does and returns
                      the rows with the verdict (complete, cut-short, inconsistent)
  --env NAME          environment to resolve variables with (default: the env file's only one)
  --env-file PATH     env file (default: the nearest http-client.env.json above FILE)
  --overlay FILE      an OpenAPI overlay written by 'apiwb import-openapi --out' (repeatable)
  -h, --help          this help
`;

export interface GenerateIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const generateSubcommand: Subcommand = {
  run: (args) => generateCommand(args),
};

export async function generateCommand(args: readonly string[], io: GenerateIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...args], allowPositionals: true, strict: true,
      options: {
        name: { type: 'string' }, lang: { type: 'string' }, paging: { type: 'boolean' }, env: { type: 'string' },
        'env-file': { type: 'string' }, overlay: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
      },
    }));
    if (values.help) {
      io.stdout.write(GENERATE_HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new Error('give one .http file');
    if (!values.name) throw new Error('--name REQUEST is required');
    if (!values.lang) throw new Error('--lang LANG is required');
    const langs = values.paging ? PAGING_LANGUAGES.map((l) => l.id as string) : SNIPPET_IDS;
    if (!langs.includes(values.lang)) throw new Error(`--lang must be one of ${langs.join(', ')}${values.paging ? ' with --paging' : ''}, not '${values.lang}'`);
  } catch (error) {
    io.stderr.write(`apiwb generate: ${terminalSafe(faultText(error))}\nRun 'apiwb generate --help' for the options.\n`);
    return 2;
  }
  const secrets = secretValuesFromEnvironment(io.env);
  const redactor = new Redactor(secrets);
  try {
    const file = resolvePath(positionals[0]!);
    const parsed = parseHttpFile(readFileSync(file, 'utf8'));
    const named = parsed.blocks.flatMap((b) => (b.request && b.request.name === values.name ? [b.request] : []));
    if (named.length === 0) throw new InputError(`${positionals[0]}: no request named '${values.name}'`);
    // One request becomes code: a name two requests share would leave one out unsaid (run and compare send both).
    if (named.length > 1) throw new InputError(`${positionals[0]}: ${named.length} requests are named '${values.name}' (lines ${named.map((r) => r.range.start.line + 1).join(', ')}); give one of them another # @name`);
    const index = named[0]!.index;
    const envFile = parseEnvFile(readFileSync(findEnvFile(values['env-file'], [file]), 'utf8'), values['env-file'] ?? 'http-client.env.json');
    const envName = values.env ?? (envFile.names.length === 1 ? envFile.names[0] : undefined);
    if (envName === undefined) throw new InputError(`--env NAME is required: the env file has ${envFile.names.length} environments (${envFile.names.join(', ')})`);
    const catalog = createCatalog(withOverlay(CONTRACT_SERVICES, (values.overlay ?? []).map((path) => readOverlayFile(readFileSync(path, 'utf8'), path))));
    const input = {
      file: parsed, requestIndex: index, environment: selectEnvironment(envFile, envName), allEnvironments: Object.values(envFile.environments), catalog,
      readInclude: bodyFileReader(file), knownSecrets: secrets,
    };
    const generated = values.paging ? await generatePagingLoop(input, values.lang) : await generateSnippet(input, values.lang);
    io.stdout.write(generated.code);
    for (const notice of generated.notices ?? []) io.stderr.write(`apiwb generate: ${terminalSafe(redactor.text(notice))}\n`);
    return 0;
  } catch (error) {
    const usage = error instanceof InputError || error instanceof EnvFileError;
    const text = faultText(error);
    io.stderr.write(`apiwb generate: ${terminalSafe(redactor.text(text))}\n`);
    return usage ? 2 : 1;
  }
}
