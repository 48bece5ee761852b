// The paging engine's public surface (vscode-free; shared by the panel and the CLI).
export type { Acceptance, Page, PagingPlan, PagingStrategy, ParsedBody, RetryPolicy, Step, WalkState } from './types';
export { DEFAULT_RETRY_POLICY } from './types';
export { createStrategy } from './strategies';
export { EXPORT_PAGE_ROWS } from './strategies/exportOrdinal';
export { NEXT_LINK_FIELDS, linkHeaderNext } from './strategies/generic';
export { hasPaginationHeaders, paginationHeaders, type PaginationHeaders } from './strategies/pageHeaders';
export { PAGING_OPTION_KEYS, PAGING_STYLE_IDS, isPagingDirective, parsePagingDirective, type DirectiveParse, type PagingDirective } from './directive';
export { detectStyle, resolveStyle, type StyleSources } from './resolve';
export { extractRows, readPath } from './rows';
export { retryAfterMs } from '../http/serverWaits';
export { SECRET_HEADERS, parseCheckpoint, withSecretsFrom, withoutSecrets, type WalkCheckpoint } from './checkpoint';
export { walk, type PageEvent, type Send, type WalkFailure, type WalkOptions, type WalkOutcome, type WalkProgress, type WalkResult } from './walker';
