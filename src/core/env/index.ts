// Environments from http-client.env.json (JetBrains convention), shared by the extension and the CLI.
export { parseEnvFile, ENV_FILE_NAME } from './loadEnvFile';
export { selectEnvironment, EnvironmentSession } from './session';
export { authEntryOf, environmentNamed, type AuthEntry, type AuthKind, type Environment, type EnvFile } from './model';
