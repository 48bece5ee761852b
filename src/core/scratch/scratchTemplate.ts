// The text of a new request scratch for a catalog operation: a `.http` block with the request line on
// the environment's base-url variable, the auth header as a {{$auth.token("id")}} reference (never a
// value), and a body skeleton of the documented fields. Where the contract is silent the scratch says so.
import { citationLabel } from '../reference';
import { bodySkeleton } from '../catalog/bodySkeleton';
import type { Operation, QueryParameter, ServiceId } from '../catalog/model';

/** The env-file variable holding each service's base URL, and its auth entry id (samples/ and npm start use them). */
export const BASE_URL_VARIABLE: Readonly<Record<ServiceId, string>> = {
  engagement: 'engagement_base_url',
  fundraising: 'fundraising_base_url',
  booking: 'booking_base_url',
};

export const AUTH_ID: Readonly<Record<ServiceId, string | undefined>> = {
  engagement: 'engagement',
  fundraising: 'fundraising',
  booking: undefined,
};

export function scratchForOperation(op: Operation): string {
  const lines: string[] = [];
  lines.push(`# ${op.family}/${op.name}: ${op.summary}`);
  lines.push(`# From the ${citationLabel(op.source)}.`);
  if (op.pathStatus === 'inferred') {
    const form = op.service === 'engagement' ? ' from the /api/<Family>/<Operation> form of every published path' : '';
    lines.push(`# The contract does not publish this path: ${op.path ?? 'it'} is inferred${form}. Correct it if your instance differs.`);
  }
  if (op.deprecated) lines.push(`# Deprecated: use ${op.deprecated.replacement}.`);
  for (const silent of op.notShown) lines.push(`# Not shown by the contract: ${silent}`);
  lines.push(`### ${op.name}`);
  lines.push(`# @name ${op.name}`);
  if (op.paging !== 'none') lines.push(`# paging style: ${op.paging} (use "Send and follow pages")`);
  const base = `{{${BASE_URL_VARIABLE[op.service]}}}`;
  const path = (op.path ?? `/api/${op.family}/${op.name}`).replace(/\{(\w+)\}/g, (_, name: string) => `{{${snakeCase(name)}}}`);
  lines.push(`${op.method ?? 'POST'} ${base}${path}${queryString(op.query ?? [])}`);
  lines.push(...authHeaders(op));
  const body = bodySkeleton(op);
  if (body !== undefined) {
    lines.push('Content-Type: application/json', '', JSON.stringify(body, null, 2));
  }
  return `${lines.join('\n')}\n`;
}

function authHeaders(op: Operation): string[] {
  const authId = AUTH_ID[op.service];
  if (op.auth.includes('password-grant')) return [`Authorization: Bearer {{$auth.token("${authId ?? op.service}")}}`];
  if (op.auth.includes('basic-api-key')) {
    return [`Authorization: Basic {{$auth.token("${authId ?? op.service}")}}`, 'X-API-Key: {{tenant_code}}'];
  }
  return ['# Auth: not shown by the contract.'];
}

/** Defaults as documented; a parameter without one becomes a {{variable}} the environment can supply. */
function queryString(parameters: readonly QueryParameter[]): string {
  const parts = parameters
    .filter((p) => p.required || p.default !== undefined)
    .map((p) => `${p.name}=${p.default !== undefined ? encodeURIComponent(String(p.default)) : `{{${snakeCase(p.name)}}}`}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** ctcID → ctc_id, BrandID → brand_id, constituentId → constituent_id. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
