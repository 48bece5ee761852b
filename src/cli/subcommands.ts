// The list of apiwb subcommands. Each module exports one Subcommand.
import { runSubcommand } from './runCommand';
import { sandboxSubcommand } from './sandboxCommand';
import { importOpenApiSubcommand } from './importCommand';
import { lspSubcommand } from './lspCommand';

export interface Subcommand {
  readonly name: string;
  readonly summary: string;
  run(args: readonly string[]): Promise<number>;
}

export const subcommands: readonly Subcommand[] = [
  runSubcommand,
  sandboxSubcommand,
  importOpenApiSubcommand,
  lspSubcommand,
];
