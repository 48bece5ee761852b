// zod schemas of http-client.env.json. JetBrains' keys for OAuth2 ("Type", "Grant Type", "Token URL",
// "Username", ...) are kept verbatim; our own entry types live under "ApiWorkbench" so JetBrains and
// httpYac, which treat an unknown object as an unused object variable, ignore them harmlessly.
import { z } from 'zod';
import { NumberText } from '../json/numberText';

// A number whose text a double would change is kept as its text (src/core/json/treeValue.ts).
const scalar = z.union([z.string(), z.number(), z.instanceof(NumberText), z.boolean(), z.null()]);

export const oauth2EntrySchema = z.looseObject({
  Type: z.literal('OAuth2', { error: 'Security.Auth entries must have "Type": "OAuth2" (JetBrains only knows that type; put Basic+X-API-Key and JWT Bearer entries under "ApiWorkbench"."Auth")' }),
  'Grant Type': z.string({ error: '"Grant Type" is required, e.g. "Password"' }),
  'Token URL': z.string().optional(),
  Username: z.string().optional(),
});

export const passwordGrantFieldsSchema = z.looseObject({
  'Token URL': z.string({ error: '"Token URL" is required for the Password grant, e.g. "{{engagement_auth_url}}/token"' }).min(1),
  Username: z.string({ error: '"Username" is required for the Password grant (the password comes from the credential store)' }).min(1),
});

export const apiwbEntrySchema = z.discriminatedUnion('Type', [
  z.looseObject({
    Type: z.literal('Basic+X-API-Key'),
    'Permission Name': z.string({ error: '"Permission Name" is required (the Basic user name)' }).min(1),
    'Tenant Code': z.string({ error: '"Tenant Code" is required (sent as X-API-Key)' }).min(1),
  }),
  z.looseObject({ Type: z.literal('JWT Bearer') }),
], { error: 'ApiWorkbench.Auth entries need "Type": "Basic+X-API-Key" or "JWT Bearer"' });

export const environmentSchema = z.looseObject({
  Security: z.looseObject({ Auth: z.record(z.string(), oauth2EntrySchema).optional() }).optional(),
  ApiWorkbench: z.looseObject({ Auth: z.record(z.string(), apiwbEntrySchema).optional() }).optional(),
}).catchall(z.union([scalar, z.record(z.string(), z.unknown()), z.array(z.unknown())]));

export const envFileSchema = z.record(
  z.string(),
  z.record(z.string(), z.unknown(), { error: 'each environment must be an object of variables' }),
  { error: 'the env file must be a JSON object of environments, e.g. { "sandbox": { "base_url": "..." } }' },
);
