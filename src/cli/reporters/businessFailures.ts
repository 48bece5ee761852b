// Business failures inside an HTTP 2xx (seed 000 §7.2) for the CLI summary and exit code, detected by
// the catalog's detector with the matched operation's error catalogue (§7.3), in one short phrase each.
import { detectBusinessErrors, type BusinessFailure } from '../../core/catalog/businessErrors';
import { createCatalog, type Catalog } from '../../core/catalog/index';
import { pathOf } from '../../core/run/pagingPlan';

let catalog: Catalog | undefined;

export function sharedCatalog(): Catalog {
  catalog ??= createCatalog();
  return catalog;
}

/** "code 1 Missing mandatory fields (SurveyApi: Missing mandatory fields)", or [] when the body reports none. */
export function businessFailuresOf(bodyText: string, method: string, url: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return [];
  }
  const operation = sharedCatalog().match(method, pathOf(url));
  const report = detectBusinessErrors(body, operation?.errorCatalogue);
  if (!report.failed) return [];
  return report.failures.map((failure) => describe(failure, report.catalogue));
}

function describe(failure: BusinessFailure, catalogue: string | undefined): string {
  const code = failure.code === undefined ? '' : `code ${failure.code} `;
  const meanings = failure.meanings.length
    ? ` (${catalogue ?? 'catalogue'}: ${failure.meanings.join(' | ')}${failure.ambiguous ? ', ambiguous as published' : ''})`
    : failure.unknownCode ? ` (not in the ${catalogue ?? ''} catalogue)` : '';
  return `${code}${failure.message}${meanings}`.trim();
}
