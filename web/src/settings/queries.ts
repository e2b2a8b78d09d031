import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { api } from "../api";
import { collect } from "../collect";

/** The signed-in person's own account: their name and e-mail. */
export const accountQuery = () =>
  queryOptions({
    queryKey: ["account"],
    queryFn: () => api.account.get(),
  });

/** The organisation's members (a short list). */
export const membersQuery = () =>
  queryOptions({
    queryKey: ["members"],
    queryFn: () => collect(api.members.iterate({ limit: 200 })),
  });

/** The organisation's API keys. */
export const apiKeysQuery = () =>
  queryOptions({
    queryKey: ["api-keys"],
    queryFn: () => api.apiKeys.list(),
  });

/** What a change to the account's details changes: the account read. */
export const afterAccountWrite = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: accountQuery().queryKey });

/** What an invitation, a role's change or a removal changes: the list of members. */
export const afterMembersWrite = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: membersQuery().queryKey });

/** What a key's creation, rename or revocation changes: the list of keys. */
export const afterApiKeysWrite = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: apiKeysQuery().queryKey });
