import {
  accountSchema,
  apiKeyListSchema,
  apiKeyPathSchema,
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  createdOrganizationSchema,
  createOrganizationBodySchema,
  createProjectBodySchema,
  projectPageSchema,
  projectSchema,
  projectSlugPathSchema,
  updateAccountUserBodySchema,
  updateApiKeyBodySchema,
  updateProjectBodySchema,
} from "../schemas/auth";
import { paginationQuerySchema } from "../schemas/common";
import { userSchema } from "../schemas/members";
import { subjects } from "../subjects";
import { defineOperation } from "./define";

export const createOrganization = defineOperation({
  operationId: "createOrganization",
  command: "create",
  method: "POST",
  path: "/v1/organizations",
  tag: "organizations",
  summary: "Create an organisation and its first owner key (operators only)",
  description:
    "Authenticated with the operator token (`SVC_ADMIN_TOKEN`), not an API key. The route does not exist when the platform runs without an operator token. The first owner key's token is in this answer only; a retry with the same Idempotency-Key and body answers 201 with the same organisation and key, `apiKey.token: null` and `apiKey.tokenAlreadyShown: true`, and creates nothing. With `ownerEmail`, that person is invited as the organisation's owner member, as `POST /v1/members` invites (the link mailed, or answered once in `owner.inviteUrl`), and the key is theirs.",
  subject: subjects.organizations.create,
  access: "operator",
  body: createOrganizationBodySchema,
  response: createdOrganizationSchema,
  oneTimeSecret: true,
  successStatus: 201,
  errors: ["conflict"],
});

export const getAccount = defineOperation({
  operationId: "getAccount",
  command: "get",
  method: "GET",
  path: "/v1/account",
  tag: "account",
  summary: "The caller's organisation, role and person",
  description:
    "`user` is the person behind the credential: the one signed in, or the one who made the API key; null for a key made by no person (the start-up key, or one made by such a key).",
  subject: subjects.account.get,
  access: "viewer",
  response: accountSchema,
  successStatus: 200,
});

export const updateAccountUser = defineOperation({
  operationId: "updateAccountUser",
  command: "update-user",
  method: "PATCH",
  path: "/v1/account/user",
  tag: "account",
  summary: "Set your own name or e-mail address",
  description:
    "Only a person signed in as themselves (a browser session opened with a sign-in link) may change their name or address: an API key is the organisation's, and an address signs its owner in to every organisation they belong to. The name shows wherever the person changed something. An address another person has is 409 conflict. Names and addresses with line breaks or other control characters are refused.",
  subject: subjects.account.updateUser,
  access: "viewer",
  body: updateAccountUserBodySchema,
  bodyExamples: { name: { summary: "Set your name", value: { name: "Ann Lee" } } },
  response: userSchema.describe("The person as they are now"),
  successStatus: 200,
  errors: ["conflict"],
});

export const listApiKeys = defineOperation({
  operationId: "listApiKeys",
  command: "list",
  method: "GET",
  path: "/v1/api-keys",
  tag: "api-keys",
  summary: "List the organisation's API keys, tokens masked",
  subject: subjects.apiKeys.list,
  access: "admin",
  response: apiKeyListSchema,
  successStatus: 200,
});

export const createApiKey = defineOperation({
  operationId: "createApiKey",
  command: "create",
  method: "POST",
  path: "/v1/api-keys",
  tag: "api-keys",
  summary: "Create an API key; the full token is in this response and never again",
  description:
    "The token is in this answer only: the platform keeps its hash, never the token. A retry with the same Idempotency-Key and body answers 201 with the same key, `token: null` and `tokenAlreadyShown: true`, and creates nothing: a token is shown once, even to a caller who may replay the request. A client whose first answer was lost revokes that key and creates another.",
  subject: subjects.apiKeys.create,
  access: "admin",
  body: createApiKeyBodySchema,
  response: createdApiKeySchema,
  oneTimeSecret: true,
  successStatus: 201,
});

export const getApiKey = defineOperation({
  operationId: "getApiKey",
  command: "get",
  method: "GET",
  path: "/v1/api-keys/{id}",
  tag: "api-keys",
  summary: "One API key, token masked",
  subject: subjects.apiKeys.get,
  access: "admin",
  params: apiKeyPathSchema,
  response: apiKeySchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const updateApiKey = defineOperation({
  operationId: "updateApiKey",
  command: "update",
  method: "PATCH",
  path: "/v1/api-keys/{id}",
  tag: "api-keys",
  summary: "Rename an API key",
  subject: subjects.apiKeys.rename,
  access: "admin",
  params: apiKeyPathSchema,
  body: updateApiKeyBodySchema,
  response: apiKeySchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const deleteApiKey = defineOperation({
  operationId: "deleteApiKey",
  command: "delete",
  method: "DELETE",
  path: "/v1/api-keys/{id}",
  tag: "api-keys",
  summary: "Revoke an API key; it stops working at every gateway within a second",
  subject: subjects.apiKeys.revoke,
  access: "admin",
  params: apiKeyPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found"],
});

export const listProjects = defineOperation({
  operationId: "listProjects",
  command: "list",
  method: "GET",
  path: "/v1/projects",
  tag: "projects",
  summary: "List projects",
  subject: subjects.projects.list,
  access: "viewer",
  query: paginationQuerySchema,
  response: projectPageSchema,
  successStatus: 200,
  paginated: true,
});

export const createProject = defineOperation({
  operationId: "createProject",
  command: "create",
  method: "POST",
  path: "/v1/projects",
  tag: "projects",
  summary: "Create a project",
  description:
    "The slug is derived from the name and never changes. The name must be unique within the organisation, compared without regard to case; so must the slug.",
  subject: subjects.projects.create,
  access: "member",
  body: createProjectBodySchema,
  bodyExamples: { project: { summary: "A new project", value: { name: "Support bot" } } },
  response: projectSchema,
  successStatus: 201,
  errors: ["conflict"],
});

export const getProject = defineOperation({
  operationId: "getProject",
  command: "get",
  method: "GET",
  path: "/v1/projects/{projectSlug}",
  tag: "projects",
  summary: "One project",
  subject: subjects.projects.get,
  access: "viewer",
  params: projectSlugPathSchema,
  response: projectSchema,
  successStatus: 200,
  errors: ["not_found"],
});

export const updateProject = defineOperation({
  operationId: "updateProject",
  command: "update",
  method: "PATCH",
  path: "/v1/projects/{projectSlug}",
  tag: "projects",
  summary: "Rename a project; its slug stays",
  description:
    "The slug stays what it was at creation, so links and clients keep working. The new name must not be another project's name in the organisation, compared without regard to case.",
  subject: subjects.projects.update,
  access: "member",
  params: projectSlugPathSchema,
  body: updateProjectBodySchema,
  response: projectSchema,
  successStatus: 200,
  errors: ["not_found", "conflict"],
});

export const deleteProject = defineOperation({
  operationId: "deleteProject",
  command: "delete",
  method: "DELETE",
  path: "/v1/projects/{projectSlug}",
  tag: "projects",
  summary: "Delete a project with all its datasets",
  description:
    "Deletes the project and, with it, every dataset in it: their rows, columns and versions. It cannot be undone, so it needs an admin key, while members may create and rename projects.",
  subject: subjects.projects.delete,
  access: "admin",
  params: projectSlugPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found"],
});
