// Loads the recorded exchanges of fixtures/recorded.json as strategy Pages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpRequest, HttpResponse } from '../../src/core/http/types';
import type { Page } from '../../src/core/paging/types';

interface Recorded {
  readonly request: HttpRequest;
  readonly response: { readonly status: number; readonly headers: Record<string, string>; readonly body?: unknown; readonly text?: string };
}

const all = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'recorded.json'), 'utf8')) as Record<string, Recorded>;

export function recordedResponse(status: number, headers: Record<string, string>, bodyText: string): HttpResponse {
  return {
    status, statusText: status === 200 ? 'OK' : '', headers, bodyText,
    timing: { startedAt: 0, firstByteMs: 1, totalMs: 2 }, sizeBytes: Buffer.byteLength(bodyText),
  };
}

export function asPage(request: HttpRequest, response: HttpResponse, receivedAt = Date.parse('2026-11-22T10:00:00Z')): Page {
  let body: Page['body'];
  try {
    body = { ok: true, value: response.bodyText === '' ? undefined : JSON.parse(response.bodyText) as unknown };
  } catch (error) {
    body = { ok: false, error: (error as Error).message };
  }
  return { request, response, body, receivedAt };
}

export function recorded(name: string, override: { bodyText?: string; headers?: Record<string, string> } = {}): Page {
  const entry = all[name];
  if (!entry) throw new Error(`no recorded exchange ${name}`);
  const text = override.bodyText ?? entry.response.text ?? JSON.stringify(entry.response.body);
  return asPage(entry.request, recordedResponse(entry.response.status, override.headers ?? entry.response.headers, text));
}

export function recordedRequest(name: string): HttpRequest {
  const entry = all[name];
  if (!entry) throw new Error(`no recorded exchange ${name}`);
  return entry.request;
}
