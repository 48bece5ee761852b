// `apiwb compare`'s bundle entry (scripts/cliBundles.mjs bundles each `./xCommand` of subcommands.ts);
// the command lives in ./compare/.
export { compareSubcommand } from './compare/compareCommand';
