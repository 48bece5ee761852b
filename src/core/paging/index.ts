// The paging engine's public surface (vscode-free; shared by the panel and the CLI).
export type { WalkProgress, WalkResult } from './walker';
