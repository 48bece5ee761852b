// A value written as `<…>` (such as "<filled by npm start>" or "<your tenant code>") stands for a value
// still to be filled in: sending it would only reach an address that does not exist and fail as
// "could not be reached". It is an input error of the environment, naming the variable.
import { EnvFileError, type Environment } from './model';

const PLACEHOLDER = /^\s*<[^<>]*>\s*$/;

/** True when `value` is a placeholder such as "<filled by npm start>". */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/** Throws an EnvFileError naming the first variable of `environment` that still holds a placeholder. */
export function assertNoPlaceholders(environment: Environment, file: string): void {
  const found = Object.entries(environment.variables).find(([, value]) => isPlaceholder(value));
  if (!found) return;
  const [key, value] = found;
  // The sample collection's environment is the sandbox's, which the sandbox can write itself.
  const fill = environment.name === 'sandbox' ? `run \`apiwb sandbox --write-env-file ${file}\`, which writes this environment, or write the value in` : 'write the value in';
  throw new EnvFileError(`${key} is a placeholder ("${value}"), not a value: ${fill}`, { file, env: environment.name, key });
}
