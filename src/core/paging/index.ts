// The paging engine's public surface (vscode-free; shared by the panel and the CLI).
export type { Acceptance, Page, PagingPlan, Step } from './types';
export { createStrategy } from './strategies';
export { linkHeaderNext } from './strategies/generic';
export { parsePagingDirective } from './directive';
export { detectStyle, resolveStyle } from './resolve';
export { rowsRule } from './rows';
export { retryAfterMs } from '../http/serverWaits';
export { withSecretsFrom, withoutSecrets, type WalkCheckpoint } from './checkpoint';
export type { Send } from './pageFetch';
export { walk, type WalkProgress, type WalkResult } from './walker';
