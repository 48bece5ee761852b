// Secrets: the SecretStore port and redaction of everything shown or written.
export { MemorySecretStore, secretKey, secretEnvVarName, knownSecretValues, type SecretStore, type SecretField } from './secretStore';
export { Redactor, REDACTED, isSecretFieldName } from './redact';
