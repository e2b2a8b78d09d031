import { paginationQuerySchema } from "../schemas/common";
import {
  addMemberBodySchema,
  invitedMemberSchema,
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
  summary: "Invite a person to the organisation",
  description: `The email is trimmed and stored in lower case; an email that is already a member is 409 conflict. The member is \`invited\` until their first sign-in, then \`active\`. The invitation is a one-time sign-in link, valid 7 days: the platform mails it when it has an SMTP server (\`SVC_SMTP_URL\`), and otherwise answers it once as \`inviteUrl\` for the inviter to pass on. ${OWNER_RULES}`,
  subject: subjects.members.add,
  access: "admin",
  body: addMemberBodySchema,
  bodyExamples: {
    member: { summary: "Invite an admin", value: { email: "ann@example.com", role: "admin" } },
  },
  response: invitedMemberSchema.describe(
    "The invited member, with the invitation's link when it was not mailed",
  ),
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
  description: `The member's browser sessions in this organisation end at once, at every gateway. ${OWNER_RULES} ${LAST_OWNER_RULE}`,
  subject: subjects.members.remove,
  access: "admin",
  params: memberPathSchema,
  response: null,
  successStatus: 204,
  errors: ["not_found", "conflict"],
});

export const leaveOrganization = defineOperation({
  operationId: "leaveOrganization",
  command: "leave",
  method: "DELETE",
  path: "/v1/account/membership",
  tag: "members",
  summary: "Leave the organisation",
  description:
    "Removes the caller's own membership: the person signed in, or the person who made the API key used. Their sessions in this organisation end at once; keys they made stay the organisation's. The last owner cannot leave (409 conflict); make another member an owner first. A key made by no person has no membership to leave (403).",
  subject: subjects.members.leave,
  access: "viewer",
  response: null,
  successStatus: 204,
  errors: ["conflict"],
});
