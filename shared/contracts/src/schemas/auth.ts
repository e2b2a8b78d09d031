import { z } from "zod";
import { cuidSchema, slugSchema } from "../ids";
import { actorSchema, nameSchema, page, roleSchema, timestampSchema } from "./common";
import { emailSchema, invitedMemberSchema, personNameSchema, userSchema } from "./members";

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  createdAt: timestampSchema,
});
export type Organization = z.infer<typeof organizationSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema,
  maskedToken: z.string().describe("The token with all but its last four characters hidden"),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
  createdBy: userSchema
    .pick({ id: true, name: true })
    .nullable()
    .describe(
      "The person who made the key (their name as it is now); null for a key made by a key or at start-up",
    ),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = apiKeySchema.extend({
  token: z
    .string()
    .nullable()
    .describe(
      "The full token, shown in this answer only: store it now. null when tokenAlreadyShown is true: the token is not kept anywhere, so no later answer can give it",
    ),
  tokenAlreadyShown: z
    .boolean()
    .describe(
      "true when this answer replays an earlier one (the same Idempotency-Key and body): the key was created by that request and its token shown in that answer only. If that answer was lost, revoke this key (by its id) and create another",
    ),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const createOrganizationBodySchema = z.strictObject({
  name: nameSchema,
  ownerEmail: emailSchema
    .optional()
    .describe("The first owner's address: they are invited as the organisation's owner member"),
});
export const createdOrganizationSchema = z.object({
  organization: organizationSchema,
  apiKey: createdApiKeySchema,
  owner: invitedMemberSchema.nullable().describe("The invited first owner, when ownerEmail was given"),
});

export const accountSchema = z.object({
  organization: organizationSchema.pick({ id: true, name: true, slug: true }),
  role: roleSchema,
  user: userSchema
    .nullable()
    .describe(
      "The person behind the credential: a person's session, or the one who made the key; null for a key made by no person",
    ),
});

export const updateAccountUserBodySchema = z
  .strictObject({ name: personNameSchema.optional(), email: emailSchema.optional() })
  .refine((body) => body.name !== undefined || body.email !== undefined, {
    message: "give name, email or both",
  })
  .meta({ minProperties: 1 });

export const apiKeyPathSchema = z.strictObject({ id: cuidSchema });
export const createApiKeyBodySchema = z.strictObject({
  name: nameSchema,
  role: roleSchema.default("member").describe("At most the caller's own role"),
});
export const updateApiKeyBodySchema = z.strictObject({ name: nameSchema });
export const apiKeyListSchema = z.object({ apiKeys: z.array(apiKeySchema) });

export const projectSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  slug: z.string(),
  name: z.string(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Project = z.infer<typeof projectSchema>;
export const projectPageSchema = page(projectSchema);
export const createProjectBodySchema = z.strictObject({ name: nameSchema });
export const updateProjectBodySchema = createProjectBodySchema;
export const projectSlugPathSchema = z.strictObject({ projectSlug: slugSchema });

/** Internal: the gateway asks `auth` who a bearer credential is. */
export const verifyCredentialInputSchema = z.object({ token: z.string().min(1).max(512) });
export const verifiedCredentialSchema = z.object({
  organizationId: z.string(),
  role: roleSchema,
  actor: actorSchema,
  /** The browser session, when the credential is one (a person's session has the user as its actor). */
  sessionId: z.string().optional(),
  /** When the credential stops working by itself (OAuth access tokens); a cache must not outlive it. */
  expiresAt: timestampSchema.optional(),
});
export type VerifiedCredential = z.infer<typeof verifiedCredentialSchema>;

/** Published (not requested) when a credential stops being valid, so every gateway drops it at once. */
export const credentialRevokedEventSchema = z.object({ actor: actorSchema });
export type CredentialRevokedEvent = z.infer<typeof credentialRevokedEventSchema>;

export const API_KEY_PREFIX = "svc_";
