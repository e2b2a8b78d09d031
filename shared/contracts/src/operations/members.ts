import { paginationQuerySchema } from "../schemas/common";
import {
  addMemberBodySchema,
  memberPageSchema,
  memberPathSchema,
  memberSchema,
  updateMemberBodySchema,
} from "../schemas/members";
import { subjects } from "../subjects";
import { defineOperation } from "./define";

const OWNER_RULES =
  "Only an owner key may make a member an owner, or change or remove a member who is an owner.";
const LAST_OWNER_RULE =
  "The last member with the owner role cannot be demoted or removed (409 conflict); make another member an owner first.";

export const listMembers = defineOperation({
  operationId: "listMembers",
  command: "list",
  method: "GET",
  path: "/v1/members",
  tag: "members",
  summary: "List the organisation's members",
  description:
    "Cursor-paginated like every list (`{items, nextCursor, hasMore}`), oldest member first. Members' email addresses are personal data, so listing them needs an admin key, as listing API keys does.",
  subject: subjects.members.list,
  access: "admin",
  query: paginationQuerySchema,
  response: memberPageSchema,
  successStatus: 200,
  paginated: true,
});

export const addMember = defineOperation({
  operationId: "addMember",
  command: "add",
  method: "POST",
  path: "/v1/members",
  tag: "members",
  summary: "Add a member to the organisation",
  description: `The email is trimmed and stored in lower case; an email that is already a member is 409 conflict. ${OWNER_RULES}`,
  subject: subjects.members.add,
  access: "admin",
  body: addMemberBodySchema,
  bodyExamples: { member: { summary: "Add an admin", value: { email: "ann@example.com", role: "admin" } } },
  response: memberSchema,
  successStatus: 201,
  errors: ["conflict"],
});

export const updateMember = defineOperation({
  operationId: "updateMember",
  command: "update",
  method: "PATCH",
  path: "/v1/members/{id}",
  tag: "members",
  summary: "Change a member's role",
  description: `${OWNER_RULES} ${LAST_OWNER_RULE}`,
  subject: subjects.members.update,
  access: "admin",
  params: memberPathSchema,
  body: updateMemberBodySchema,
  response: memberSchema,
  successStatus: 200,
  errors: ["not_found", "conflict"],
});

export const removeMember = defineOperation({
  operationId: "removeMember",
  command: "remove",
  method: "DELETE",
  path: "/v1/members/{id}",
  tag: "members",
  summary: "Remove a member from the organisation",
  description: `${OWNER_RULES} ${LAST_OWNER_RULE}`,
  subject: subjects.members.remove,
  access: "admin",
  params: memberPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found", "conflict"],
});
