// Small helpers so every documented field carries its FieldMeta (description, seed source, enum
// meanings, sandboxRequired, release). The metadata travels into the generated JSON Schema, where the language server
// reads it for hover, completion and diagnostics.
import { z } from 'zod';
import type { FieldMeta, SeedRef } from '../model';

/** Attach the field's documented metadata. Typed so that only FieldMeta keys can be set. */
export function documented<T extends z.ZodType>(schema: T, meta: FieldMeta): T {
  return schema.meta({ ...meta });
}

/**
 * The contract's "integer int32": an integer inside the 32-bit signed range. The JSON Schema carries
 * `format: int32` so hover can show the declared type as the contract states it.
 */
export function int32(): z.ZodNumber {
  return z.int32().meta({ format: 'int32' });
}

/** A field whose type the contract does not show: anything is accepted, and the description says so. */
export function typeNotShown(description: string, source: SeedRef): z.ZodOptional<z.ZodUnknown> {
  return documented(z.unknown().optional(), { description: `${description} (type not shown)`, source });
}

export const seed000 = (section: string): SeedRef => ({ seed: '000', section });
export const seed001 = (section: string): SeedRef => ({ seed: '001', section });
export const seed002 = (section: string): SeedRef => ({ seed: '002', section });

/**
 * A schema (or group of fields) built on its first use and the same one every use after. A run that
 * only sends requests never reads the catalog's bodies (the language server, the sandbox, drift checks
 * and imports do), and building the zod schemas of every body was part of every `apiwb run`'s start.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
