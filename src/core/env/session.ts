// The active environment: which one of a loaded env file requests resolve against. Switching is
// explicit and checked, so a typo says which environments exist instead of silently resolving nothing.
import type { EnvFile, Environment } from './model';
import { EnvFileError, environmentNamed } from './model';

export function selectEnvironment(file: EnvFile, name: string): Environment {
  const env = environmentNamed(file, name);
  if (env) return env;
  const known = file.names.length ? file.names.map((n) => `'${n}'`).join(', ') : 'none';
  throw new EnvFileError(`no environment named '${name}' (environments in this file: ${known})`, { file: file.path, env: name });
}

export class EnvironmentSession {
  private activeName: string | undefined;
  private readonly listeners = new Set<(env: Environment | undefined) => void>();

  constructor(private file: EnvFile, initial?: string) {
    if (initial !== undefined) this.use(initial);
  }

  get active(): Environment | undefined {
    return this.activeName === undefined ? undefined : environmentNamed(this.file, this.activeName);
  }

  get names(): readonly string[] {
    return this.file.names;
  }

  use(name: string): Environment {
    const env = selectEnvironment(this.file, name);
    this.activeName = name;
    this.emit();
    return env;
  }

  /** The file changed on disk: keep the active environment if it still exists. */
  reload(file: EnvFile): void {
    this.file = file;
    if (this.activeName !== undefined && !environmentNamed(file, this.activeName)) this.activeName = undefined;
    this.emit();
  }

  onDidChange(listener: (env: Environment | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    for (const listener of this.listeners) listener(this.active);
  }
}
