import type { ApiKey, Member, Organization, Project } from "@svc/contracts";
import type { ApiKeyRecord } from "../repositories/api-keys";
import type { MemberRecord } from "../repositories/members";
import type { OrganizationRecord } from "../repositories/organizations";
import type { ProjectRecord } from "../repositories/projects";
import { maskToken } from "./tokens";

/** Records as the contract shows them: ISO timestamps, and a key's token masked. */
export const toApiKey = (key: ApiKeyRecord): ApiKey => ({
  id: key.id,
  name: key.name,
  role: key.role,
  maskedToken: maskToken(key.tokenLast4),
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  createdBy: key.createdBy,
});

export const toOrganization = (organization: OrganizationRecord): Organization => ({
  id: organization.id,
  name: organization.name,
  slug: organization.slug,
  createdAt: organization.createdAt.toISOString(),
});

export const toProject = (project: ProjectRecord): Project => ({
  id: project.id,
  organizationId: project.organizationId,
  slug: project.slug,
  name: project.name,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

export const toMember = (member: MemberRecord): Member => ({
  id: member.id,
  userId: member.userId,
  organizationId: member.organizationId,
  email: member.email,
  name: member.name,
  role: member.role,
  status: member.status,
  createdAt: member.createdAt.toISOString(),
  updatedAt: member.updatedAt.toISOString(),
});
