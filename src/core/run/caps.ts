// The contract's caps on query parameters (pageSize at most 500 for GetOrdersByCustomer): a value above
// the documented maximum is clamped before the request leaves, with a notice saying so. A walk then
// computes its next page from what the server returned, never from what was asked.
import type { Operation } from '../catalog';
import type { HttpRequest } from '../http/types';
import { asNumber, queryParam, withQueryParam } from '../paging/requestEdit';

export function clampToContract(request: HttpRequest, operation: Operation | undefined): { request: HttpRequest; notices: string[] } {
  const notices: string[] = [];
  let out = request;
  for (const parameter of operation?.query ?? []) {
    if (parameter.maximum === undefined) continue;
    const asked = asNumber(queryParam(out, parameter.name));
    if (asked === undefined || asked <= parameter.maximum) continue;
    out = withQueryParam(out, parameter.name, parameter.maximum);
    notices.push(`${parameter.name}=${asked} is above the contract's maximum of ${parameter.maximum} for ${operation?.name ?? 'this operation'}; sent ${parameter.name}=${parameter.maximum}`);
  }
  return { request: out, notices };
}
