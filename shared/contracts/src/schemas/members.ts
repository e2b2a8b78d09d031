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

export const memberSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string().describe("Lower-case email address, unique within the organisation"),
  role: roleSchema,
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Member = z.infer<typeof memberSchema>;
export const memberPageSchema = page(memberSchema);

export const memberPathSchema = z.strictObject({ id: cuidSchema });
export const addMemberBodySchema = z.strictObject({ email: emailSchema, role: roleSchema });
export type AddMemberBody = z.infer<typeof addMemberBodySchema>;
export const updateMemberBodySchema = addMemberBodySchema.pick({ role: true });
export type UpdateMemberBody = z.infer<typeof updateMemberBodySchema>;
