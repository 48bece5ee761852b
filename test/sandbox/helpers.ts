// Plain-HTTP helpers for the sandbox contract tests (global fetch, nothing from the product's client).
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the sandbox's answers field by field
export type Json = Record<string, unknown> & { [key: string]: any };

export async function tokenRequest(d: SandboxDescriptor, fields: Record<string, string>, path = '/token'): Promise<Response> {
  return fetch(`${d.engagement.authUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

export async function signIn(d: SandboxDescriptor, username = d.credentials.engagement.username, password = d.credentials.engagement.password): Promise<string> {
  const response = await tokenRequest(d, { grant_type: 'password', username, password });
  const body = (await response.json()) as Json;
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(body)}`);
  return body['access_token'] as string;
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra };
}

export async function engagementGet(d: SandboxDescriptor, token: string, pathAndQuery: string, extra: Record<string, string> = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${d.engagement.baseUrl}${pathAndQuery}`, { headers: bearer(token, extra) });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

export async function engagementPost(d: SandboxDescriptor, token: string, path: string, body: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(`${d.engagement.baseUrl}${path}`, {
    method: 'POST',
    headers: bearer(token, extra),
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json, headers: response.headers };
}

export function basicHeaders(d: SandboxDescriptor, record = d.credentials.fundraising.fullAccess, tenant = d.credentials.fundraising.tenantCode): Record<string, string> {
  return {
    'x-api-key': tenant,
    authorization: `Basic ${Buffer.from(`${record.permissionName}:${record.serviceKey}`).toString('base64')}`,
    'content-type': 'application/json',
  };
}

export async function fundraising(d: SandboxDescriptor, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(path.startsWith('http') ? path : `${d.fundraising.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? basicHeaders(d),
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json, headers: response.headers };
}

/** Starts a sandbox and signs in to the engagement service: the setup most contract-test files share. */
export async function startSignedIn(options: SandboxOptions): Promise<{ sandbox: RunningSandbox; d: SandboxDescriptor; token: string }> {
  const sandbox = await startSandbox(options);
  return { sandbox, d: sandbox.descriptor, token: await signIn(sandbox.descriptor) };
}
