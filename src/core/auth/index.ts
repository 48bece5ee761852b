// Sign-in and credentials, vscode-free: used by the extension (with a SecretStorage adapter) and the CLI.
export { describeTimeLeft } from './timeLeft';
export { SignInError } from './passwordGrant';
export { decodeJwt, describeJwt } from './jwt';
export { CredentialService, AuthError, type SessionInfo, type SignInState } from './credentials';
export { AuthVariables, findAuthReferences, type AuthReference } from './authVariables';
