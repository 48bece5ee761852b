// The fuzz suite's inputs: the sample and fixture .http files mutated the way careless or hostile
// editing does (inserted fragments, deletions, duplicated slices, 20 000-deep JSON, control characters,
// self-doubling variables), and plain random text. Seeded and counted by the environment so `npm test`
// runs a short fixed sample and `npm run fuzz` a long one with the same code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

const ROOT = join(import.meta.dirname, '..', '..');

/** APIWB_FUZZ_SEED / APIWB_FUZZ_RUNS override the fixed seed and the short count of `npm test`. */
export const FUZZ_SEED = Number(process.env.APIWB_FUZZ_SEED ?? 20_261_122);
export const FUZZ_RUNS = Number(process.env.APIWB_FUZZ_RUNS ?? 300);

function httpFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).filter((f) => /\.(http|rest)$/.test(f)).map((f) => readFileSync(join(ROOT, dir, f), 'utf8'));
}

export const SAMPLES: readonly string[] = [
  ...httpFiles('samples/collections'), ...httpFiles('samples/workspace'), ...httpFiles('test/fixtures/http'),
];

/** Fragments that mean something to the .http grammar, JSON, the terminal or the variable resolver. */
const SYNTAX = [
  '###', '\n###\n', '### title\r\n', '> {%', '%}', '> ./handler.js', '<> ./ref', '< ./body.json', '<@ ./x', '{{', '}}', '{{$auth.token("', '{{$auth.token("engagement")}}',
  '{{a.response.body.$.x[0]}}', '@a = {{a}}{{a}}\n@b = {{a}}{{a}}\n', '# @name ', '# @paging export-ordinal pageRows=', '# @no-redirect', '?', '&', '=', '#',
  'Content-Type: application/json\n\n', 'POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion\n', 'GET /v1/constituents?limit=', ':', '"', '\\', '{', '}', '[', ']',
  '\n', '\r', '\r\n', '\t', '\u0000', '\u001b[31m', '\u001b]0;x\u0007', '\u0085', '\u2028', '\uFFFF', '\uD800', '😀', '\u0301',
];

/** Request lines of operations with a body schema: their bodies are parsed and walked. */
const SCHEMA_REQUESTS = [
  'POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion\n', 'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion\n',
  'POST {{fundraising_base_url}}/v1/constituents\n',
];

const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SYNTAX) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => '{"a":'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => '['.repeat(n)) },
  // A deep body under a request whose schema the server walks.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...SCHEMA_REQUESTS), fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('{"OpCode":', '[', '{"Choices":[')).map(([request, n, open]) => `\n###\n${request}Content-Type: application/json\n\n${open.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2_000 }).map((n) => '{{'.repeat(n)) },
);

const mutation = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  kind: fc.constantFrom('insert', 'insert', 'delete', 'duplicate'),
  length: fc.nat({ max: 400 }),
  text: fragment,
});

type Mutation = { at: number; kind: string; length: number; text: string };

function mutate(base: string, mutations: readonly Mutation[]): string {
  let text = base;
  for (const m of mutations) {
    const at = Math.floor(m.at * text.length);
    if (m.kind === 'insert') text = text.slice(0, at) + m.text + text.slice(at);
    else if (m.kind === 'delete') text = text.slice(0, at) + text.slice(at + m.length);
    else text = text.slice(0, at) + text.slice(at, at + m.length).repeat(2) + text.slice(at + m.length);
  }
  return text;
}

const mutatedSample = fc.tuple(fc.constantFrom(...SAMPLES), fc.array(mutation, { minLength: 1, maxLength: 8 })).map(([base, ms]) => mutate(base, ms));
const randomText = fc.oneof(fc.string({ unit: 'binary', maxLength: 3_000 }), fc.string({ unit: 'grapheme-ascii', maxLength: 3_000 }));

/** A document to open: four in five a mutated sample, one in five random text. */
export const documentText = fc.oneof({ weight: 4, arbitrary: mutatedSample }, { weight: 1, arbitrary: randomText });

/** Cursor positions as fractions of the document, turned into line/character by positionsIn. */
export const cursors = fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat({ max: 200 })), { minLength: 1, maxLength: 4 });

export function positionsIn(text: string, fractions: ReadonlyArray<readonly [number, number]>): Array<{ line: number; character: number }> {
  const lines = text.split(/\r\n|\r|\n/);
  return fractions.map(([f, character]) => ({ line: Math.floor(f * lines.length), character }));
}

export const fuzzCase = fc.record({ text: documentText, cursors, edit: documentText });
