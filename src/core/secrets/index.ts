// Secrets: the SecretStore port, the one secret vocabulary, and redaction of everything shown or written.
export { MemorySecretStore, secretKey, secretEnvVarName, knownSecretValues, type SecretStore, type SecretField } from './secretStore';
export { Redactor, REDACTED } from './redact';
export {
  AUTH_SCHEME, CREDENTIAL_HEADER_NAMES, hasAuthScheme, hasLiteral, hasReference, isCredentialHeader, isLiteralSecret,
  isOnlyReferences, isSecretName, looksLikeJwt, mapAroundReferences, nextReference, referencesIn, withoutReferences,
} from './vocabulary';
