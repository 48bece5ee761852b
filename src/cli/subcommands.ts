// The list of apiwb subcommands. Each module exports one Subcommand.
export interface Subcommand {
  readonly name: string;
  readonly summary: string;
  run(args: readonly string[]): Promise<number>;
}

export const subcommands: readonly Subcommand[] = [];
