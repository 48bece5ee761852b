// Sign-in and credentials, vscode-free: used by the extension (with a SecretStorage adapter) and the CLI.
export { describeTimeLeft, humanDuration } from './timeLeft';
export { requestPasswordGrant, normaliseTokenUrl, SignInError, type TokenGrant, type PasswordGrantInput, type SignInFailureKind } from './passwordGrant';
export { basicApiKeyHeaders, basicCredentialToken, type BasicApiKeyCredentials } from './basicApiKey';
export { decodeJwt, describeJwt, isJwtExpired, JwtFormatError, type DecodedJwt } from './jwt';
export { explainAuthFailure, explanationLine, type AuthExplanation, type AuthScheme, type ExplainInput } from './explain';
export { CredentialService, AuthError, type CredentialServiceOptions, type SessionInfo, type SignInState } from './credentials';
export { AuthVariables, findAuthReferences, authIdFromArgs, type AuthReference } from './authVariables';
export type { SendHttp, Clock } from './ports';
