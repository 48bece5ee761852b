// Sign-in and credentials, vscode-free: used by the extension (with a SecretStorage adapter) and the CLI.
export { describeTimeLeft } from './timeLeft';
export { requestPasswordGrant, SignInError } from './passwordGrant';
export { basicCredentialToken } from './basicApiKey';
export { decodeJwt, describeJwt, isJwtExpired } from './jwt';
export { explainAuthFailure } from './explain';
export { CredentialService, AuthError, type SessionInfo, type SignInState } from './credentials';
export { AuthVariables, findAuthReferences, authIdFromArgs, type AuthReference } from './authVariables';
