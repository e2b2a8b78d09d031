import { z } from "zod";
import { cuidSchema } from "../ids";
import { page, roleSchema, timestampSchema } from "./common";

/** Trimmed and lower-cased before it is checked, so `Ann@Example.com ` and `ann@example.com` are one member. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "must be at most 254 characters")
  .check(z.email("must be an email address, like ann@example.com"));

/**
 * A person's name as others see it: no control characters (a line break in a name would be a line
 * break in the headers of the mail it appears in).
 */
export const personNameSchema = z
  .string()
  .min(1, { error: "must not be empty", abort: true })
  .max(200, "must be at most 200 characters")
  .regex(/^[^\p{Cc}\u2028\u2029]*$/u, "must not contain line breaks or other control characters")
  .regex(/\S/, "must not be empty")
  .trim();

/** A person, once across organisations. */
export const userSchema = z.object({
  id: z.string(),
  email: z
    .string()
    .nullable()
    .describe("Lower-case; null for the first owner of a fresh installation until they set one"),
  name: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const memberStatusSchema = z
  .enum(["invited", "active"])
  .describe("invited until the person first signs in, then active");
export type MemberStatus = z.infer<typeof memberStatusSchema>;

export const memberSchema = z.object({
  id: z.string(),
  userId: z.string(),
  organizationId: z.string(),
  email: userSchema.shape.email,
  name: z.string().describe("The person's name; the address until they set one"),
  role: roleSchema,
  status: memberStatusSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Member = z.infer<typeof memberSchema>;
export const memberPageSchema = page(memberSchema);

export const memberPathSchema = z.strictObject({ id: cuidSchema });
export const addMemberBodySchema = z.strictObject({ email: emailSchema, role: roleSchema });
export const invitedMemberSchema = memberSchema.extend({
  inviteUrl: z
    .string()
    .nullable()
    .describe(
      "The one-time sign-in link (valid 7 days) to hand to the person, when no e-mail was sent (the platform has no SVC_SMTP_URL, or the mail could not be sent); null when it was mailed, and on a replay of this request: it is shown once",
    ),
});
export type InvitedMember = z.infer<typeof invitedMemberSchema>;
export type AddMemberBody = z.infer<typeof addMemberBodySchema>;
export const updateMemberBodySchema = addMemberBodySchema.pick({ role: true });
export type UpdateMemberBody = z.infer<typeof updateMemberBodySchema>;
