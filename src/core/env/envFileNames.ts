// The variable NAMES an env file declares, per environment, for a language server whose client sends none
// (Neovim, Emacs, any LSP client): http-client.env.json and http-client.private.env.json read by the one
// env-JSON reader (readEnvJson), each environment's keys that are variables (variablesOf: not its auth,
// network or certificate sections). No value is kept: a private file's values never leave this function.
import { readEnvJson, variablesOf } from './loadEnvFile';
import { isJsonObject } from '../json/numberText';

export interface EnvFileVariable {
  readonly name: string;
  /** The environments that declare it, in file order (`$shared`: every environment). */
  readonly environments: readonly string[];
  /** Declared in http-client.private.env.json (its value is a secret; only the name is known here). */
  readonly private: boolean;
}

/** Throws an EnvFileError (file, line, column) for a text that is not a JSON object of environments. */
export function envFileVariableNames(text: string, file: string, isPrivate: boolean): EnvFileVariable[] {
  const { raw } = readEnvJson(text, file);
  const found = new Map<string, string[]>();
  if (!isJsonObject(raw)) return [];
  for (const [environment, body] of Object.entries(raw)) {
    if (!isJsonObject(body)) continue;
    for (const name of Object.keys(variablesOf(body))) {
      const environments = found.get(name) ?? [];
      environments.push(environment);
      found.set(name, environments);
    }
  }
  return [...found].map(([name, environments]) => ({ name, environments, private: isPrivate }));
}

/** Several files' names as one list: one entry per name and kind, the environments of all of them. */
export function mergeEnvFileVariables(lists: Iterable<readonly EnvFileVariable[]>): EnvFileVariable[] {
  const merged = new Map<string, { name: string; environments: Set<string>; private: boolean }>();
  for (const list of lists) {
    for (const variable of list) {
      const key = `${variable.private ? 'p' : 's'}:${variable.name}`;
      const entry = merged.get(key) ?? { name: variable.name, environments: new Set<string>(), private: variable.private };
      for (const environment of variable.environments) entry.environments.add(environment);
      merged.set(key, entry);
    }
  }
  return [...merged.values()].map((v) => ({ name: v.name, environments: [...v.environments], private: v.private }));
}
