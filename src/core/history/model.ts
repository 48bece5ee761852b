// What one history entry holds, as written to disk. Everything here has been through the Redactor
// (src/core/secrets) before it reached this shape; the loader re-validates it, since the file on disk
// is as hostile as any other input.
import { z } from 'zod';

export const WALK_VERDICTS = ['complete', 'cut-short', 'inconsistent', 'failed'] as const;
export type WalkVerdictKind = (typeof WALK_VERDICTS)[number];

const headerMap = z.record(z.string(), z.string());

export const HistoryEntrySchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
  /** ISO time the response (or the fault) arrived. */
  time: z.string(),
  /** The request's `# @name`, when it has one. */
  name: z.string().optional(),
  /**
   * Where the request was written: a workspace file and the request's index in it then, a hint only: which
   * request it is now (re-run, earlier responses, compare) is requestNow.ts's rule; `twin`: which of the
   * requests written alike in the file then it was (0 the first), the one thing that tells twins apart.
   */
  origin: z.object({ file: z.string(), index: z.number().int().nonnegative(), twin: z.number().int().nonnegative().optional() }).optional(),
  /** The request block as written (variables unexpanded), redacted: what "Save to collection" saves. */
  source: z.string().optional(),
  environment: z.string().optional(),
  operationId: z.string().optional(),
  request: z.object({
    method: z.string(),
    url: z.string(),
    headers: headerMap,
    body: z.string().optional(),
    bodyNote: z.string().optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      statusText: z.string(),
      headers: headerMap,
      totalMs: z.number().nonnegative(),
      firstByteMs: z.number().nonnegative(),
      /** Bytes received, whatever was kept. */
      sizeBytes: z.number().int().nonnegative(),
      /** Name of the body file (content-addressed, shared by identical bodies); absent for an empty body. */
      bodyFile: z.string().regex(/^[0-9a-f]{64}\.body$/).optional(),
      /** Characters kept in the body file. */
      storedChars: z.number().int().nonnegative(),
      /** Set when the body was cut before storing: how much of it is kept. */
      bodyNote: z.string().optional(),
    })
    .optional(),
  /** Why there is no response (connection refused, timeout...), redacted. */
  fault: z.string().optional(),
  business: z.object({
    verdict: z.enum(['ok', 'failed', 'none']),
    codes: z.array(z.number()).optional(),
    summary: z.string().optional(),
  }),
  walk: z
    .object({
      verdict: z.enum(WALK_VERDICTS),
      reason: z.string().optional(),
      pages: z.number().int().nonnegative(),
      rows: z.number().int().nonnegative(),
      /** Where "All pages" wrote the rows (workspace-relative). */
      file: z.string().optional(),
      /** The paging style walked. */
      style: z.string().optional(),
    })
    .optional(),
  /** How many contract drift findings the response had, when it was checked. */
  driftFindings: z.number().int().nonnegative().optional(),
});

export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const HistoryIndexSchema = z.object({ version: z.literal(1), entries: z.array(z.unknown()) });
