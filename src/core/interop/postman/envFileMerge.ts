// The imported environment merged into the workspace's http-client.env.json: the file as the product reads
// it (comments and all), edited in place so nothing the user wrote is lost.
import { applyEdits, modify } from 'jsonc-parser';
import { ENV_FILE_NAME, readEnvJson } from '../../env/loadEnvFile';
import { EnvFileError } from '../../env/model';
import { isJsonObject } from '../../json/numberText';
import type { PostmanImport } from './importCollection';

/**
 * An http-client.env.json text with the imported environment merged into `existing` (if any): read by the
 * env file's own reader (comments allowed), the variables set by editing the text in place, so the file
 * keeps its comments and layout. A file that cannot be read, or whose environment of that name is not an
 * object, throws an EnvFileError naming it: callers compute this before writing any file of the import.
 */
export function envFileWithImport(imported: PostmanImport, existing?: string, file = ENV_FILE_NAME): string {
  const { name, variables } = imported.environment;
  if (existing === undefined || existing.trim() === '') return `${JSON.stringify({ [name]: variables }, null, 2)}\n`;
  const { raw } = readEnvJson(existing, file);
  if (!isJsonObject(raw)) throw new EnvFileError('the file is not a JSON object of environments; the import would replace it', { file });
  const current = raw[name];
  if (current !== undefined && !isJsonObject(current)) throw new EnvFileError('the environment is not an object of variables; the import would replace it', { file, env: name });
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const options = { formattingOptions: { insertSpaces: true, tabSize: 2, eol } };
  // A new environment is added empty, then filled as one already there.
  let text = current === undefined ? applyEdits(existing, modify(existing, [name], {}, options)) : existing;
  const added: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(variables)) {
    if (current !== undefined && Object.hasOwn(current, key)) text = applyEdits(text, modify(text, [name, key], value, options));
    else added.push([key, value]);
  }
  return added.length === 0 ? text : withAddedVariables(text, name, added, options);
}

/**
 * `added` (names not in the environment yet) appended to it in one edit: the first is placed by `modify`,
 * which gives the layout, and the others follow it in that layout. A text edit per variable would read
 * the whole file again for each (minutes for a collection of 10 000 variables).
 */
function withAddedVariables(text: string, name: string, added: ReadonlyArray<[string, string]>, options: Parameters<typeof modify>[3]): string {
  const property = ([key, value]: [string, string]): string => `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  const edits = modify(text, [name, added[0]![0]], added[0]![1], options);
  const edit = edits.length === 1 ? edits[0]! : undefined;
  const at = edit ? edit.content.lastIndexOf(property(added[0]!)) : -1;
  if (!edit || at === -1) {
    // Not the layout looked for: one edit per variable, slower and as right.
    return added.reduce((done, [key, value]) => applyEdits(done, modify(done, [name, key], value, options)), text);
  }
  const indent = edit.content.slice(edit.content.lastIndexOf('\n', at) + 1, at);
  const properties = added.map(property).join(`,${options.formattingOptions?.eol ?? '\n'}${indent}`);
  return applyEdits(text, [{ ...edit, content: edit.content.slice(0, at) + properties + edit.content.slice(at + property(added[0]!).length) }]);
}
