// Entry points of the OpenAPI import: from text (a file the caller read), from an already-parsed value,
// or from a URL over the product's HTTP client (TLS verified, no redirects beyond a few, size-bounded).
import type { ServiceId } from '../catalog/model';
import type { Operation } from '../catalog/model';
import { sendRequest, type SendOptions } from '../http/client';
import { HttpFault, headerValue } from '../http/types';
import { parseOpenApiText, type OpenApiDocument } from './document';
import { OpenApiImportError } from './errors';
import { mapOperations } from './operations';

export interface ImportOptions {
  /**
   * The service the document describes. Default 'fundraising': it is the service whose contract
   * publishes an OpenAPI document (seed 001 §4, /openapi/v1.json).
   */
  readonly service?: ServiceId;
}

/** One imported document: its operations (origin 'import') and what could not be mapped. */
export interface OpenApiImport {
  /** URL or file path as the user gave it; overlays of the same source replace each other. */
  readonly source: string;
  readonly service: ServiceId;
  readonly openapi: string;
  readonly title?: string;
  readonly version?: string;
  readonly operations: readonly Operation[];
  /** Parts skipped (external $refs, non-JSON bodies), in words, each naming the operation. */
  readonly warnings: readonly string[];
}

function fromDocument(document: OpenApiDocument, source: string, options: ImportOptions): OpenApiImport {
  const service = options.service ?? 'fundraising';
  const warnings: string[] = [];
  const operations = mapOperations(document, { source, service }, warnings);
  return {
    source,
    service,
    openapi: document.openapi,
    ...(document.info.title ? { title: document.info.title } : {}),
    ...(document.info.version ? { version: document.info.version } : {}),
    operations,
    warnings,
  };
}

/** Imports a document's JSON text; throws OpenApiImportError naming `source`. */
export function importOpenApiText(text: string, source: string, options: ImportOptions = {}): OpenApiImport {
  return fromDocument(parseOpenApiText(text, source), source, options);
}

export interface FetchOptions extends ImportOptions {
  /** Extra request headers (e.g. a redacted-elsewhere Authorization when the document is protected). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly send?: SendOptions;
}

/** Fetches a document over HTTP(S) and imports it; every failure is an OpenApiImportError naming the URL. */
export async function importOpenApiUrl(url: string, options: FetchOptions = {}): Promise<OpenApiImport> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OpenApiImportError(url, 'not a URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OpenApiImportError(url, `only http and https URLs can be fetched (got ${parsed.protocol}).`);
  let response;
  try {
    response = await sendRequest(
      { method: 'GET', url: parsed.href, headers: { Accept: 'application/json', ...options.headers } },
      { timeoutMs: 15_000, maxBodyBytes: 32 * 1024 * 1024, maxRedirects: 3, ...options.send },
    );
  } catch (error) {
    throw new OpenApiImportError(url, `could not be fetched: ${error instanceof HttpFault ? error.message : String(error)}`);
  }
  if (response.status !== 200) {
    throw new OpenApiImportError(url, `the server answered HTTP ${response.status} ${response.statusText}`.trimEnd() + ' instead of the document.');
  }
  const contentType = headerValue(response.headers, 'content-type') ?? '';
  if (/text\/html/i.test(contentType)) {
    throw new OpenApiImportError(url, 'the server answered an HTML page, not an OpenAPI document (for the fundraising service use /openapi/v1.json, not /swagger/index.html).');
  }
  return importOpenApiText(response.bodyText, url, options);
}
