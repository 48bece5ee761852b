// The shape of the product's knowledge of the services. Everything here comes from ../shared/seeds/
// and nothing else; where a contract is silent the model says so (`notShown`, `pathStatus`) instead
// of inventing. Schemas are zod (the single source of truth); JSON Schema for the language server is
// generated from them (see jsonSchema.ts), never written twice.
import type { z } from 'zod';
import type { JSONSchema as ZodJsonSchema } from 'zod/v4/core';

export type ServiceId = 'engagement' | 'fundraising' | 'booking';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** Where a fact comes from: the seed document and its section, e.g. { seed: '000', section: '2.1' }. */
export interface SeedRef {
  readonly seed: '000' | '001' | '002';
  readonly section: string;
}

/**
 * How a request authenticates.
 * - password-grant: `Authorization: Bearer` with a token from POST {auth_url}/token (engagement).
 * - basic-api-key: Basic permission:serviceKey plus X-API-Key tenant code (fundraising integrations).
 * - jwt-bearer: a platform identity JWT pasted by the user (fundraising interactive users).
 * - not-shown: the contract does not say (booking).
 */
export type AuthMethod = 'password-grant' | 'basic-api-key' | 'jwt-bearer' | 'not-shown';

/** The paging styles of DESIGN.md's table. Names are the ones used by `# @paging` directives. */
export type PagingStyleId =
  | 'page-number'
  | 'page-headers'
  | 'offset-remaining'
  | 'batch-cursor'
  | 'export-ordinal'
  | 'stateful-extraction'
  | 'generic'
  | 'none';

/**
 * - published: the seed gives method and path.
 * - inferred: the seed gives no path; we use `/api/<Family>/<Operation>` with the method the contract
 *   implies (a body request is a POST), and say so in the UI.
 * - not-published: no usable path at all (the operation is only named).
 */
export type PathStatus = 'published' | 'inferred' | 'not-published';

export type ErrorCatalogueId = 'SurveyApi' | 'Customer' | 'HotelBooking' | 'LoyaltyPoint' | 'LoyaltyProgram';

export interface QueryParameter {
  readonly name: string;
  /** 'not-shown' when the contract names the parameter but not its type (e.g. ctcID, dateAdded). */
  readonly type: 'integer' | 'string' | 'boolean' | 'date' | 'not-shown';
  readonly meaning: string;
  readonly required?: boolean;
  readonly default?: string | number;
  readonly minimum?: number;
  readonly maximum?: number;
  /** Allowed values, e.g. include=channelPreferences|trackingCodes|... */
  readonly values?: readonly string[];
  readonly source: SeedRef;
}

export interface ResponseHeader {
  readonly name: string;
  readonly meaning: string;
  readonly source: SeedRef;
}

export interface Operation {
  /** Stable id: `<service>/<Family>/<Name>`, e.g. `engagement/SurveyApi/AddChoiceQuestion`. */
  readonly id: string;
  readonly service: ServiceId;
  readonly family: string;
  readonly name: string;
  readonly summary: string;
  /** Undefined only when pathStatus is 'not-published'. */
  readonly method?: HttpMethod;
  /** Relative to the service's base_url, with `{param}` placeholders. Undefined when not published. */
  readonly path?: string;
  readonly pathStatus: PathStatus;
  readonly auth: readonly AuthMethod[];
  readonly paging: PagingStyleId;
  readonly query?: readonly QueryParameter[];
  /** zod schema of the JSON request body, with `.meta({ description, source, enumMeanings })` on fields. */
  readonly requestBody?: z.ZodType;
  readonly responseBody?: z.ZodType;
  readonly responseHeaders?: readonly ResponseHeader[];
  readonly errorCatalogue?: ErrorCatalogueId;
  /** HTTP statuses the contract states for this operation besides 200. */
  readonly statuses?: readonly number[];
  /** Things the contract is silent about for this operation, in words for the UI. */
  readonly notShown: readonly string[];
  /** `replacement` in words for the UI; `replacementIds` the catalog ids of replacing operations, when any. */
  readonly deprecated?: { readonly replacement: string; readonly replacementIds?: readonly string[] };
  readonly source: SeedRef;
  /** 'import' for operations merged from an imported OpenAPI document. */
  readonly origin: 'contract' | 'import';
  /**
   * JSON Schema of the request body given directly (an imported OpenAPI document has no zod). When set,
   * requestBodyJsonSchema(op) returns it instead of generating one from `requestBody`; on a contract
   * operation enriched by an import it is the contract's schema merged with the imported one.
   */
  readonly requestBodyJsonSchema?: ZodJsonSchema.JSONSchema;
  readonly responseBodyJsonSchema?: ZodJsonSchema.JSONSchema;
  /** Options of the `generic` paging style read from an imported document (next=next_link items=value ...). */
  readonly pagingOptions?: Readonly<Record<string, string>>;
  /** Set when an imported OpenAPI document created (origin 'import') or enriched (origin 'contract') the operation. */
  readonly imported?: ImportMark;
  /** The release that introduced or changed the operation, when the contract dates it (seed 001 §9). */
  readonly release?: ReleaseMark;
  /** The field that identifies each row of a list, where the contract names one (a comparison matches rows by it). */
  readonly recordKey?: { readonly field: string; readonly source: SeedRef };
}

/** A release of the release history (seed 001 §9.3): its label and, when published, its date. */
export interface Release {
  readonly id: string;
  readonly label: string;
  /** Production release date; the history as published names the releases without their dates. */
  readonly date?: string;
  readonly source: SeedRef;
}

/** Which release introduced, changed or removed an operation or field; response fields it removed. */
export interface ReleaseMark {
  readonly introduced?: Release;
  readonly changed?: Release;
  readonly removed?: Release;
  /** Response fields the change stopped returning, and where their information is read now. */
  readonly removedResponseFields?: readonly { readonly name: string; readonly readFrom: string }[];
}

/** What the contract says about the service's versions, for the service node and hovers. */
export interface ServiceRelease {
  /** A few words for the service node, e.g. "release 1.34.0.0". */
  readonly short: string;
  /** One line, e.g. "contract: release 1.34.0.0 (non-production runs 1.35; compatibility unverified)". */
  readonly summary: string;
  readonly facts: readonly string[];
  readonly source: SeedRef;
}

/** What an imported OpenAPI document contributed to an operation, for the tree and hovers. */
export interface ImportMark {
  /** The document's URL or file path, as the user gave it. */
  readonly source: string;
  readonly operationId?: string;
  /** 'operation' for an operation the contract does not have; else what was filled in: 'requestBody', 'query:limit', 'paging', ... */
  readonly contributed: readonly string[];
}

export interface Family {
  readonly name: string;
  readonly service: ServiceId;
  readonly summary: string;
  /** Operation count the contract states for the family, when it states one. */
  readonly statedOperationCount?: number;
  readonly operations: readonly Operation[];
  /** e.g. "The remaining SurveyApi operations (10 of the 20 in the family): not shown." */
  readonly notShown: readonly string[];
  /** Set on the deprecated families (Contact, Survey) the reference excludes (seed 000 §9). */
  readonly deprecated?: { readonly replacement: string };
  readonly source: SeedRef;
}

/** The engagement service's token endpoint, on {auth_url} rather than {base_url} (seed 000 §5.1). */
export interface TokenEndpoint {
  readonly method: 'POST';
  /** Relative to the auth URL. */
  readonly path: string;
  /** Spellings some instances register; callers should use `path`. */
  readonly alternatePaths: readonly string[];
  readonly contentType: 'application/x-www-form-urlencoded';
  readonly formFields: readonly { readonly name: string; readonly meaning: string; readonly value?: string }[];
  readonly responseBody: z.ZodType;
  /** The error values and descriptions of seed 000 §7.4; their HTTP status and body layout are not shown. */
  readonly errors: readonly { readonly error: string; readonly description: string; readonly condition: string }[];
  readonly notShown: readonly string[];
  readonly source: SeedRef;
}

export interface Service {
  readonly id: ServiceId;
  readonly title: string;
  readonly summary: string;
  readonly auth: readonly AuthMethod[];
  readonly families: readonly Family[];
  /** Operation count the contract states for the whole service (engagement: 217). */
  readonly statedOperationCount?: number;
  readonly notShown: readonly string[];
  /** Engagement only: where and how to get a bearer token. */
  readonly tokenEndpoint?: TokenEndpoint;
  /** Release facts the contract states for the whole service. */
  readonly release?: ServiceRelease;
  readonly source: SeedRef;
}

/** Metadata attached with zod's `.meta()` to each documented field. */
export interface FieldMeta {
  readonly description: string;
  readonly source?: SeedRef;
  /** Enum meanings of an integer field, e.g. { 0: 'OneToFive', 1: 'ZeroToTen' }. */
  readonly enumMeanings?: Readonly<Record<number, string>>;
  /**
   * Not nullable in the contract's field table, which is all it says: which fields are required is
   * not shown (seed 000 §4.1). The sandbox's `required-fields` choice (off unless switched on) answers
   * code 1 without these fields; the language server says so as information, never as an error.
   */
  readonly sandboxRequired?: boolean;
  /** The release that added or removed the field (fundraising, seed 001 §9). */
  readonly release?: ReleaseMark;
  /** JSON Schema `format`, e.g. 'int32' for the contract's "integer int32". */
  readonly format?: string;
  /** A default the contract states (the server applies it; the schema does not fill it in). */
  readonly default?: unknown;
}

/** An operation's bodies as the catalog's files give them: builders (schemas/documented.ts builtOnFirstUse). */
export interface BodyBuilders {
  readonly requestBody?: () => z.ZodType;
  readonly responseBody?: () => z.ZodType;
}

/**
 * `fields` with requestBody and responseBody read from their builders when first read: enumerable
 * getters, so the operation reads, spreads and compares as one holding the schemas, while a run that
 * never reads a body never builds one.
 */
export function withBodies<T extends object>(fields: T, bodies: BodyBuilders): T & { readonly requestBody?: z.ZodType; readonly responseBody?: z.ZodType } {
  for (const key of ['requestBody', 'responseBody'] as const) {
    const build = bodies[key];
    if (build) Object.defineProperty(fields, key, { get: build, enumerable: true, configurable: true });
  }
  return fields;
}
