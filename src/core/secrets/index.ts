// Secrets: the SecretStore port, the one secret vocabulary, and redaction of everything shown or written.
export { MemorySecretStore, secretKey, secretEnvVarName, knownSecretValues, type SecretStore } from './secretStore';
export { Redactor, REDACTED } from './redact';
export { hasLiteral, hasReference, isSecretName, referencesIn } from './vocabulary';
