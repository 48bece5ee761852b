// Every custom LSP method and command of API Workbench's language server, in one module shared by the
// server and the extension's client. Payloads are validated with zod on receipt.
import { z } from 'zod';

/** Client → server: the active environment changed. Variable NAMES only; values never leave the editor. */
export const EnvironmentChangedNotification = 'apiWorkbench/environmentChanged';
export const environmentChangedParams = z.object({
  /** Name of the active environment, for messages; absent when none is active. */
  environment: z.string().optional(),
  variables: z.array(z.string()),
});
export type EnvironmentChangedParams = z.infer<typeof environmentChangedParams>;

/**
 * Client → server: operations imported from an OpenAPI document, merged over the contract catalog
 * (the contract's own operations win on a clash). Each replaces the previous overlay.
 */
export const CatalogOverlayNotification = 'apiWorkbench/catalogOverlay';
const querySchema = z.object({
  name: z.string(),
  type: z.enum(['integer', 'string', 'boolean', 'date']),
  meaning: z.string().default(''),
  required: z.boolean().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
});
export const catalogOverlayParams = z.object({
  /** Where the document came from, e.g. `https://host/openapi/v1.json`, for hover texts. */
  origin: z.string().optional(),
  operations: z.array(z.object({
    id: z.string(),
    service: z.enum(['engagement', 'fundraising', 'booking']),
    family: z.string(),
    name: z.string(),
    summary: z.string().default(''),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
    path: z.string(),
    query: z.array(querySchema).optional(),
    /** JSON Schema of the request body, as the OpenAPI document gives it (local $refs resolved or in $defs). */
    requestBodySchema: z.record(z.string(), z.unknown()).optional(),
  })),
});
export type CatalogOverlayParams = z.infer<typeof catalogOverlayParams>;

/** Commands the CodeLenses run in the editor; the extension registers them. */
export const SEND_COMMAND = 'apiWorkbench.send';
export const SEND_AND_FOLLOW_PAGES_COMMAND = 'apiWorkbench.sendAndFollowPages';
/** Opens the shipped contract reference at a section; argument { seed, section } (core/reference). */
export const OPEN_CONTRACT_REFERENCE_COMMAND = 'apiWorkbench.openContractReference';

/** The single argument of both commands. */
export interface SendRequestArguments {
  readonly uri: string;
  /** The request's 0-based position among the file's requests (HttpRequestNode.index). */
  readonly requestIndex: number;
}

/** The settings section the server reads through workspace/didChangeConfiguration, if the client sends it. */
export const CONFIGURATION_SECTION = 'apiWorkbench';
