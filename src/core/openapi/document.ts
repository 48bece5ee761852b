// Reading an OpenAPI document's text: JSON only (see README note in index.ts), validated just enough to
// be sure it is an OpenAPI 3.0 or 3.1 document with operations, with errors that name the source and,
// for broken JSON, the line and column.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { OpenApiImportError } from './errors';
import { isJsonObject } from '../json/numberText';
import { scalarText } from '../text/scalarText';

export type Json = Record<string, unknown>;

export interface OpenApiDocument {
  /** '3.0.3', '3.1.0', ... */
  readonly openapi: string;
  readonly info: { readonly title?: string; readonly version?: string };
  readonly root: Json;
  readonly paths: Json;
}

export const HTTP_METHODS_OF_OPENAPI = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** Parses and checks a document; throws OpenApiImportError naming `source` when it cannot be imported. */
export function parseOpenApiText(text: string, source: string): OpenApiDocument {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new OpenApiImportError(source, 'the document is empty.');
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
    if (/^(openapi|swagger)\s*:|^---/m.test(trimmed)) {
      throw new OpenApiImportError(source, 'the document is YAML; API Workbench imports OpenAPI documents in JSON (the fundraising service serves /openapi/v1.json). Convert it to JSON and import again.');
    }
    const start = trimmed.slice(0, 40).replace(/\s+/g, ' ');
    throw new OpenApiImportError(source, `not JSON (it starts with "${start}"); an OpenAPI document in JSON was expected.`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (first) {
    throw new OpenApiImportError(source, `not valid JSON: ${printParseErrorCode(first.error)} at ${lineAndColumn(text, first.offset)}.`);
  }
  return checkOpenApiDocument(value, source);
}

/** Checks a parsed value. */
function checkOpenApiDocument(value: unknown, source: string): OpenApiDocument {
  if (!isJsonObject(value)) throw new OpenApiImportError(source, 'not an OpenAPI document: the top level is not a JSON object.');
  if (value['swagger'] !== undefined) {
    throw new OpenApiImportError(source, `a Swagger ${scalarText(value['swagger'])} document; only OpenAPI 3.0 and 3.1 can be imported.`);
  }
  const version = value['openapi'];
  if (typeof version !== 'string') throw new OpenApiImportError(source, "not an OpenAPI document: it has no 'openapi' version field.");
  if (!/^3\.[01]\.\d+/.test(version)) {
    throw new OpenApiImportError(source, `OpenAPI version ${version} is not supported; only 3.0 and 3.1 can be imported.`);
  }
  const paths = value['paths'];
  if (paths === undefined) throw new OpenApiImportError(source, "the document has no 'paths': there are no operations to import.");
  if (!isJsonObject(paths)) throw new OpenApiImportError(source, "'paths' is not an object.");
  const operationCount = Object.values(paths).filter(isJsonObject)
    .reduce((n, item) => n + HTTP_METHODS_OF_OPENAPI.filter((m) => isJsonObject(item[m])).length, 0);
  if (operationCount === 0) throw new OpenApiImportError(source, "'paths' holds no operations to import.");
  const info = isJsonObject(value['info']) ? value['info'] : {};
  return {
    openapi: version,
    info: {
      title: typeof info['title'] === 'string' ? info['title'] : undefined,
      version: typeof info['version'] === 'string' ? info['version'] : undefined,
    },
    root: value,
    paths,
  };
}
