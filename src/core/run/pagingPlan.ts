// Which paging plan a request follows, from its `# @paging` directive, else its catalog operation, else
// nothing (the walker then detects the style from the first response). Shared by the panel and the CLI.
// The catalog passed in is the one with the imported OpenAPI overlays, so their paging reaches the walker.
import type { Catalog, Operation } from '../catalog';
import { pathOf } from '../http/url';
import { parsePagingDirective, type PagingDirective } from '../paging/directive';
import { resolveStyle } from '../paging/resolve';
import type { PagingPlan } from '../paging/types';

export type PlanLookup =
  | {
      readonly ok: true;
      readonly plan: PagingPlan | undefined;
      /** Without a plan: the options the style detected from the first response takes (`# @paging auto items=…`). */
      readonly detectOptions?: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly error: string };

export function pagingPlanFor(
  request: { readonly method: string; readonly url: string },
  directives: Readonly<Record<string, string>>,
  catalog: Catalog,
  /** The request's catalog operation, when the caller has matched it already (by the same method and path). */
  operation: Operation | undefined = catalog.match(request.method, pathOf(request.url)),
): PlanLookup {
  let directive: PagingDirective | undefined;
  const written = directives['paging'];
  if (written !== undefined) {
    const parsed = parsePagingDirective(`# @paging ${written}`);
    if (!parsed.ok) return { ok: false, error: `# @paging: ${parsed.error}` };
    directive = parsed.directive;
  }
  const catalogStyle = operation?.paging;
  // An imported operation's paging names (next=next_link items=value …) travel with its style.
  const catalogOptions = operation?.pagingOptions;
  const plan = resolveStyle({ ...(directive ? { directive } : {}), ...(catalogStyle ? { catalogStyle } : {}), ...(catalogOptions ? { catalogOptions } : {}) });
  const detectOptions = !plan && directive && Object.keys(directive.options).length > 0 ? directive.options : undefined;
  return { ok: true, plan, ...(detectOptions ? { detectOptions } : {}) };
}
