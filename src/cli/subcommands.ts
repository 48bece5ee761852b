// The list of apiwb subcommands: name and summary here, the work in its own module, loaded only when
// the subcommand runs (so `apiwb --help` and a mistyped command load none of them).

/** What a subcommand's module exports. */
export interface Subcommand {
  run(args: readonly string[]): Promise<number>;
}

export interface SubcommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Sends HTTP requests with undici and ends when they are done (src/cli/main.ts tunes V8 for it). */
  readonly sendsRequests?: boolean;
  load(): Promise<Subcommand>;
}

export const subcommands: readonly SubcommandEntry[] = [
  { name: 'run', summary: 'Run .http requests against an environment (exit 1 on HTTP or business failure)', sendsRequests: true, load: async () => (await import('./runCommand')).runSubcommand },
  { name: 'compare', summary: 'Compare the same requests on two environments, with a baseline, or two exports, record by record', sendsRequests: true, load: async () => (await import('./compareCommand')).compareSubcommand },
  { name: 'sandbox', summary: 'Run the simulated services on 127.0.0.1 (demos, tests, benchmarks)', load: async () => (await import('./sandboxCommand')).sandboxSubcommand },
  { name: 'import-openapi', summary: 'Import an OpenAPI document (URL or file) as a catalog overlay', sendsRequests: true, load: async () => (await import('./importCommand')).importOpenApiSubcommand },
  { name: 'generate', summary: 'Print a request as code (curl, fetch, Python, C#, Java, Go, ...) or a paging loop', load: async () => (await import('./generateCommand')).generateSubcommand },
  { name: 'lsp', summary: 'Run the .http language server (--stdio or --node-ipc)', load: async () => (await import('./lspCommand')).lspSubcommand },
];
