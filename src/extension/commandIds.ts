// The ids of every command the extension registers (vscode-free so scripts can read it).
export const COMMANDS = {
  refreshServices: 'apiWorkbench.refreshServices',
} as const;

export type CommandKey = keyof typeof COMMANDS;
