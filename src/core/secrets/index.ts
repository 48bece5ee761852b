// Secrets: the SecretStore port, the one secret vocabulary, and redaction of everything shown or written.
export { secretKey, knownSecretValues, type SecretStore } from './secretStore';
export { Redactor } from './redact';
export { isSecretName } from './vocabulary';
