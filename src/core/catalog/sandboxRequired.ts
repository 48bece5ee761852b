// The fields the sandbox's `required-fields` choice asks for: the non-nullable fields of the SurveyApi
// tables (seed 000 §2.1 base fields, §2.3 ChoiceItem.Label), flagged `sandboxRequired` in their
// metadata. Which fields are required is NOT shown (§4.1): code 1 ("Missing mandatory fields") exists,
// but nothing says for which fields. So this list is a labelled sandbox choice, never a schema
// rejection, and the language server reports it as information only.
import type { JSONSchema } from './jsonSchema';
import { derefSchema, nonNullSchema, requestBodyJsonSchema } from './jsonSchema';
import type { Operation } from './model';
import { isJsonObject } from '../json/numberText';

/**
 * Paths of the sandboxRequired fields a body lacks or holds as null, nested ChoiceItems included
 * (`Choices[1].Label`). A non-object body lacks every top-level one.
 */
export function missingSandboxRequiredFields(op: Operation, body: unknown): readonly string[] {
  const root = requestBodyJsonSchema(op);
  return root ? missingIn(root, root, body, '') : [];
}

function missingIn(root: JSONSchema, schema: JSONSchema, value: unknown, prefix: string): string[] {
  const node = nonNullSchema(root, derefSchema(root, schema));
  const record = isJsonObject(value) ? value : {};
  const out: string[] = [];
  for (const [name, property] of Object.entries(node.properties ?? {})) {
    if (typeof property !== 'object') continue;
    const field = record[name];
    if (field === undefined || field === null) {
      if (property.sandboxRequired === true) out.push(`${prefix}${name}`);
      continue;
    }
    const inner = nonNullSchema(root, derefSchema(root, property));
    const items = inner.items;
    if (Array.isArray(field) && items && typeof items === 'object' && !Array.isArray(items)) {
      field.forEach((item, index) => {
        if (isJsonObject(item)) out.push(...missingIn(root, items, item, `${prefix}${name}[${index}].`));
      });
    }
  }
  return out;
}
