// What an exchange takes and gives (exchange.ts runs it): the ports it needs from its host, the input of
// one request, the steps a caller adds, and the result every reporter reads. Types only.
import type { AuthExplanation } from '../auth/explain';
import type { BusinessErrorReport, Catalog, Operation } from '../catalog';
import type { RowSink } from '../export/sink';
import type { HttpPort } from '../http/client';
import type { QuotaBook } from '../http/serverWaits';
import type { HttpRequest, HttpResponse } from '../http/types';
import type { HttpFile } from '../httpfile/model';
import type { NamedResponse } from '../httpfile/resolve';
import type { WalkCheckpoint } from '../paging/checkpoint';
import type { PagingPlan } from '../paging/types';
import type { PageEvent, WalkProgress, WalkResult } from '../paging/walker';
import type { SignInAgain } from './credentialRenewal';
import type { PrepareContext, Prepared } from './prepareRequest';
import type { SecretBindings } from '../secrets/bindings';

/** What the exchange needs from its host. One value of `timeoutMs` for a send, a sign-in and every page. */
export interface ExchangePorts {
  readonly http: HttpPort;
  /** The contracts plus any imported OpenAPI overlay: operations, paging, error catalogues. */
  readonly catalog: Catalog;
  /** Time allowed for one whole response, headers and body (ms). */
  readonly timeoutMs: number;
  /** TLS verification; only `false` turns it off. */
  readonly rejectUnauthorized?: boolean;
  /**
   * Every secret the run or the editor holds and the origins each may go to: the send boundary checks every
   * page, redirect hop, next link and resume against it (src/core/secrets/bindings.ts). Required: a host
   * that sends has secrets to guard, or an empty set that says so.
   */
  readonly guard: SecretBindings;
  /** All waits on the server of one walk or send together (ms; ../http/serverWaits.ts). Default 5 minutes. */
  readonly maxWaitMs?: number;
  /** Each origin's announced quota, shared by every exchange of a run or an editor session. */
  readonly quotas?: QuotaBook;
  /** The editor's sign-in prompt when a token would expire mid-walk (the CLI signs in by itself). */
  readonly signInAgain?: SignInAgain;
}

/** A finding of one step (assertions, contract drift, …). A 'failure' makes the exchange not ok. */
export interface Finding {
  /** The step that found it ('assertions', 'contract', …). */
  readonly step: string;
  readonly severity: 'failure' | 'warning' | 'note';
  /** In words, for the CLI line and the panel. */
  readonly message: string;
  /** Structured detail for a reporter (junit, json) or a panel section; never a secret. */
  readonly detail?: unknown;
}

/** What a step sees: the exchange so far. Values are as received; redact before showing anything. */
export interface StepView {
  readonly request: HttpRequest;
  readonly response: HttpResponse;
  /** The parsed body; undefined when empty or not JSON. */
  readonly body: unknown;
  readonly rows: RowsOfExchange | undefined;
  readonly operation: Operation | undefined;
  readonly catalog: Catalog;
  readonly prepared: Extract<Prepared, { ok: true }>;
}

/** A step added after the built-in ones (see README.md): it returns findings and never throws for a finding. */
export interface ExchangeStep {
  readonly name: string;
  run(view: StepView): readonly Finding[] | Promise<readonly Finding[]>;
}

export interface RowsOfExchange {
  /** Where the rows are in the body ('$', 'Orders', 'value'); the panel builds its table from the same path. */
  readonly path: string;
  /** The rows of the response shown (the first page); empty when they were streamed to a sink. */
  readonly items: readonly unknown[];
  /** Rows of the whole exchange: this page, or every page of an all-pages walk. */
  readonly count: number;
}

/** A walk that can go on: the paging state the panel's Next page / All pages and `--resume` continue. */
export interface PagingCursor {
  readonly plan: PagingPlan;
  readonly checkpoint: WalkCheckpoint;
  /** The first request without its credentials: a continuation must keep its method and origin. */
  readonly first: HttpRequest;
  /** True while the strategy sees more pages. */
  readonly more: boolean;
  /** The environment it was sent in: a continuation in another one is refused (its credentials differ). */
  readonly environment: string;
  /** Why the walk cannot go on, in the bar's words, when it stopped on something else than its end. */
  readonly stopped?: string;
}

export interface ExchangeInput {
  readonly file: HttpFile;
  readonly requestIndex: number;
  readonly prepare: PrepareContext;
  /**
   * Told the secret values this request was handed (a token signed in for it) before anything is sent:
   * whatever redacts its rows on the way to a file or a panel must know them before the rows arrive.
   */
  readonly onSecrets?: (values: readonly string[]) => void;
  /** Named responses ({{name.response…}}): this request's response is recorded under its # @name. */
  readonly remember?: Map<string, NamedResponse>;
  readonly signal?: AbortSignal;
  /** 'first': one response (a paged request: its first page, with a cursor to continue). 'all': every page into `walk.sink`. */
  readonly pages: 'first' | 'all';
  readonly walk?: AllPagesOptions;
  /**
   * 'first' only: where the response's rows go, written as they arrive (the CLI's --out, or a counting
   * sink), wherever the one rows rule finds them: a response of any size then costs flat memory, its rows
   * are not kept (rows.items is empty) and neither is its body text (response.bodyText is '' when the
   * body was not held; a large one with no rows is spilled to a temp file and examined there). Without
   * it, the rows are kept in rows.items.
   */
  readonly rowsTo?: RowSink;
  /**
   * With rowsTo: the largest body read back whole for the steps and `remember` (KeptBody; the body limit
   * unless said). The panel passes its SPILL_AT: past it its KeptResponse keeps the bytes on disk, and the
   * steps run on the first rows there.
   */
  readonly keepBodyWithin?: number;
  readonly steps?: readonly ExchangeStep[];
  /** False when the caller never continues this exchange (no Next page, no resume): no paging cursor then. */
  readonly continuable?: boolean;
}

export interface AllPagesOptions {
  /** Where every page's rows go; without one they are counted and dropped. */
  readonly sink?: RowSink;
  readonly maxPages?: number;
  /** Continue a walk from its checkpoint (the sink must be reopened at the checkpoint's length). */
  readonly resumeFrom?: WalkCheckpoint;
  readonly onPage?: (event: PageEvent) => void | Promise<void>;
  /** Every progress of the walk, waits included ("rate limited: waiting 12 s"). */
  readonly onProgress?: (progress: WalkProgress) => void;
}

export interface ExchangeResult {
  /** Everything succeeded: a response < 400, no business failure, a complete walk, no failure finding. */
  readonly ok: boolean;
  readonly prepared: Prepared;
  /** The request as sent (after caps); holds credentials: redact before showing. */
  readonly request?: HttpRequest;
  /** The response shown: the single response, the first page, or an all-pages walk's last page. */
  readonly response?: HttpResponse;
  readonly operation?: Operation;
  readonly rows?: RowsOfExchange;
  /** The response's body as parsed once (by the walk or here), for the panel; undefined when empty or not JSON. As received: redact before showing. */
  readonly body?: unknown;
  /** Pages of an all-pages walk (all of them, resumed parts included). */
  readonly pages?: number;
  /** Present when the request is paged: what the walk knows and how to continue it. */
  readonly paging?: PagingCursor;
  /** The walk behind the exchange: its verdict, message and checkpoint. */
  readonly walk?: WalkResult;
  readonly business?: BusinessErrorReport;
  /** Business failures in words ("code 1 Missing mandatory fields (SurveyApi: …)"). */
  readonly businessFailures: readonly string[];
  readonly auth?: AuthExplanation;
  /** Things the user should know that are not failures: a clamped page size, a redirect followed. */
  readonly notices: readonly string[];
  /** Findings of the caller's steps (assertions, contract drift), in step order. */
  readonly findings: readonly Finding[];
  /** Why the exchange failed, in words (no response, a walk cut short, a 4xx/5xx said in words). */
  readonly problem?: string;
  /** Why the body could not be read (nested deeper than the product reads): always a failure. */
  readonly unreadable?: string;
  /**
   * Why the rows are not all there (the walk's words): an all-pages walk that is not complete, or a paged
   * first page the paging engine refused (a 200 with broken JSON, no rows where the style expects them,
   * paging that contradicts itself). Always a failure; see walkProblemOf.
   */
  readonly incomplete?: string;
  /**
   * When the exchange failed only on what a request can say it expects — its status (>= 400), a business
   * failure, or both — which of them; absent when it passed or when anything else failed too.
   */
  readonly failedOnlyOn?: readonly ExpectableFailure[];
}

export type ExpectableFailure = 'status' | 'business';

/**
 * A request made ready to send: prepared (variables, $auth values, `< file` body), its secret values told
 * to the caller, matched to its contract operation, capped, its paging plan chosen. Nothing is sent yet;
 * or, when it cannot be sent, the exchange's result already.
 */
export type ReadyExchange =
  | {
      readonly ok: true;
      readonly prepared: Extract<Prepared, { ok: true }>;
      readonly operation: Operation | undefined;
      /** The request as it will go (after the caps). */
      readonly request: HttpRequest;
      readonly notices: readonly string[];
      /** Undefined: none is known before the response (the walk detects the style from it). */
      readonly plan: PagingPlan | undefined;
      /** Without a plan: the options the detected style takes (`# @paging auto items=…`). */
      readonly detectOptions?: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly result: ExchangeResult };
