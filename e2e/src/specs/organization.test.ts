import { beforeAll, describe, expect, it } from "vitest";
import {
  type Dataset,
  expectError,
  listAll,
  makeDataset,
  makeProject,
  type Page,
  unique,
} from "../factories";
import { type Client, client } from "../http";
import { projectForSuite, targets } from "../targets";

interface Member {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  inviteUrl?: string | null;
  createdAt: string;
  updatedAt: string;
}
interface ApiKey {
  id: string;
  name: string;
  role: string;
  maskedToken: string;
  createdAt: string;
  lastUsedAt: string | null;
}
interface Project {
  id: string;
  slug: string;
  name: string;
  updatedAt: string;
}

describe.each(targets())(
  "organisation, keys, members, projects and datasets through the gateway (%s)",
  (_name, start) => {
    const suite = projectForSuite(start);

    /** A key of `role` made by `by`, and a client that uses it. */
    async function keyFor(by: Client, role: string) {
      const created = await by.post<ApiKey & { token: string }>("/v1/api-keys", {
        name: `${role} ${unique()}`,
        role,
      });
      expect(created.status).toBe(201);
      return { key: created.body, api: client(suite.target.baseUrl, created.body.token) };
    }

    describe("API keys", () => {
      it("shows a new key's token once, masked everywhere afterwards, and lists, renames and revokes it", async () => {
        const created = await suite.api.post<ApiKey & { token: string; tokenAlreadyShown: boolean }>(
          "/v1/api-keys",
          {
            name: "CI",
            role: "viewer",
          },
        );
        expect(created.status).toBe(201);
        // No cache on the way may keep the token; no client may take the answer for anything but JSON.
        expect(created.headers.get("cache-control")).toBe("no-store");
        expect(created.headers.get("x-content-type-options")).toBe("nosniff");
        const { token, tokenAlreadyShown, ...key } = created.body;
        expect(token).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
        expect(tokenAlreadyShown).toBe(false);
        expect(key).toEqual({
          id: expect.stringMatching(/^[a-z0-9]{24}$/),
          name: "CI",
          role: "viewer",
          maskedToken: `svc_…${token.slice(-4)}`,
          createdAt: expect.any(String),
          lastUsedAt: null,
          // The key's maker: the start-up owner when embedded; no person behind an operator-made key.
          createdBy: suite.target.name === "embedded" ? { id: expect.any(String), name: "Owner" } : null,
        });

        // The token works, and is never shown again.
        expect((await client(suite.target.baseUrl, token).get("/v1/account")).body).toMatchObject({
          role: "viewer",
        });
        const list = await suite.api.get<{ apiKeys: ApiKey[] }>("/v1/api-keys");
        expect(list.status).toBe(200);
        expect(list.body.apiKeys.find((k) => k.id === key.id)).toMatchObject({
          ...key,
          lastUsedAt: expect.any(String),
        });
        const one = await suite.api.get<ApiKey>(`/v1/api-keys/${key.id}`);
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({ id: key.id, maskedToken: key.maskedToken });
        const renamed = await suite.api.patch<ApiKey>(`/v1/api-keys/${key.id}`, { name: "CI runner" });
        expect(renamed.status).toBe(200);
        expect(renamed.body).toMatchObject({ id: key.id, name: "CI runner", maskedToken: key.maskedToken });
        for (const answer of [list, one, renamed]) {
          expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
          expect(JSON.stringify(answer.body)).not.toContain(token);
          expect(JSON.stringify(answer.body)).not.toContain(token.slice(4, 20));
        }

        expect((await suite.api.delete(`/v1/api-keys/${key.id}`)).status).toBe(204);
        await expectError(client(suite.target.baseUrl, token).get("/v1/account"), 401, "unauthenticated");
        await expectError(suite.api.get(`/v1/api-keys/${key.id}`), 404, "not_found");
        const after = await suite.api.get<{ apiKeys: ApiKey[] }>("/v1/api-keys");
        expect(after.body.apiKeys.map((k) => k.id)).not.toContain(key.id);
      });

      it("creates a member key when no role is given, and refuses a role above the caller's", async () => {
        const created = await suite.api.post<ApiKey>("/v1/api-keys", { name: "default" });
        expect(created.body.role).toBe("member");
        const { api: admin } = await keyFor(suite.api, "admin");
        await expectError(admin.post("/v1/api-keys", { name: "up", role: "owner" }), 403, "forbidden");
      });

      it("lets neither a member nor a viewer key see or manage keys", async () => {
        const { key } = await keyFor(suite.api, "viewer");
        for (const role of ["member", "viewer"]) {
          const { api } = await keyFor(suite.api, role);
          await expectError(api.get("/v1/api-keys"), 403, "forbidden");
          await expectError(api.post("/v1/api-keys", { name: "x", role: "viewer" }), 403, "forbidden");
          await expectError(api.get(`/v1/api-keys/${key.id}`), 403, "forbidden");
          await expectError(api.patch(`/v1/api-keys/${key.id}`, { name: "x" }), 403, "forbidden");
          await expectError(api.delete(`/v1/api-keys/${key.id}`), 403, "forbidden");
        }
        expect((await suite.api.get<ApiKey>(`/v1/api-keys/${key.id}`)).body.name).toBe(key.name);
      });
    });

    describe("members", () => {
      /** A fresh organisation, so that its members are only the test's. */
      let org: Client;
      beforeAll(async () => {
        org = client(suite.target.baseUrl, await suite.target.newOrganizationKey());
      });
      const members = async (api: Client = org) => listAll<Member>(api, "/v1/members");

      it("adds (email trimmed, lower case), lists, changes the role of and removes a member", async () => {
        const added = await org.post<Member>("/v1/members", { email: "  Ann@Example.COM ", role: "viewer" });
        expect(added.status).toBe(201);
        const { inviteUrl, ...member } = added.body;
        expect(member).toEqual({
          id: expect.stringMatching(/^[a-z0-9]{24}$/),
          userId: expect.stringMatching(/^[a-z0-9]{24}$/),
          organizationId: expect.any(String),
          email: "ann@example.com",
          name: "ann@example.com",
          role: "viewer",
          status: "invited",
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        // Without SMTP the invitation's link is answered, once, for the inviter to pass on.
        expect(inviteUrl).toMatch(/\/sign-in#code=svc_sc_/);
        expect(await members()).toContainEqual(member);

        await expectError(
          org.post("/v1/members", { email: "ANN@example.com", role: "admin" }),
          409,
          "conflict",
        );

        const changed = await org.patch<Member>(`/v1/members/${added.body.id}`, { role: "admin" });
        expect(changed.status).toBe(200);
        expect(changed.body).toMatchObject({ id: added.body.id, role: "admin" });
        expect((await members()).find((m) => m.id === added.body.id)?.role).toBe("admin");

        expect((await org.delete(`/v1/members/${added.body.id}`)).status).toBe(204);
        expect((await members()).map((m) => m.id)).not.toContain(added.body.id);
        await expectError(org.patch(`/v1/members/${added.body.id}`, { role: "viewer" }), 404, "not_found");
        await expectError(org.delete(`/v1/members/${added.body.id}`), 404, "not_found");
      });

      it("never demotes or removes the last owner, and does once there is another", async () => {
        const first = await org.post<Member>("/v1/members", {
          email: `first-${unique()}@example.com`,
          role: "owner",
        });
        expect(first.status).toBe(201);
        const before = await members();

        const demote = await expectError(
          org.patch(`/v1/members/${first.body.id}`, { role: "admin" }),
          409,
          "conflict",
        );
        expect(demote.error).toContain("last owner");
        await expectError(org.delete(`/v1/members/${first.body.id}`), 409, "conflict");
        expect(await members()).toEqual(before);

        const second = await org.post<Member>("/v1/members", {
          email: `second-${unique()}@example.com`,
          role: "owner",
        });
        expect(second.status).toBe(201);
        expect((await org.patch<Member>(`/v1/members/${first.body.id}`, { role: "admin" })).body.role).toBe(
          "admin",
        );
        await expectError(org.delete(`/v1/members/${second.body.id}`), 409, "conflict");
        expect((await org.delete(`/v1/members/${first.body.id}`)).status).toBe(204);
      });

      it("lets an admin key manage members below owner, but never grant, change or remove an owner", async () => {
        const { api: admin } = await keyFor(org, "admin");
        const anOwner = await org.post<Member>("/v1/members", {
          email: `boss-${unique()}@example.com`,
          role: "owner",
        });
        const added = await admin.post<Member>("/v1/members", {
          email: `dev-${unique()}@example.com`,
          role: "member",
        });
        expect(added.status).toBe(201);
        expect((await admin.patch<Member>(`/v1/members/${added.body.id}`, { role: "admin" })).status).toBe(
          200,
        );

        await expectError(
          admin.post("/v1/members", { email: `x-${unique()}@example.com`, role: "owner" }),
          403,
          "forbidden",
        );
        await expectError(admin.patch(`/v1/members/${added.body.id}`, { role: "owner" }), 403, "forbidden");
        await expectError(
          admin.patch(`/v1/members/${anOwner.body.id}`, { role: "viewer" }),
          403,
          "forbidden",
        );
        await expectError(admin.delete(`/v1/members/${anOwner.body.id}`), 403, "forbidden");
        expect((await members()).find((m) => m.id === anOwner.body.id)?.role).toBe("owner");
        expect((await admin.delete(`/v1/members/${added.body.id}`)).status).toBe(204);
      });

      it("lets neither a member nor a viewer key list, add, change or remove members", async () => {
        const someone = await org.post<Member>("/v1/members", {
          email: `s-${unique()}@example.com`,
          role: "viewer",
        });
        for (const role of ["member", "viewer"]) {
          const { api } = await keyFor(org, role);
          await expectError(api.get("/v1/members"), 403, "forbidden");
          await expectError(
            api.post("/v1/members", { email: `n-${unique()}@example.com`, role: "viewer" }),
            403,
            "forbidden",
          );
          await expectError(api.patch(`/v1/members/${someone.body.id}`, { role: "admin" }), 403, "forbidden");
          await expectError(api.delete(`/v1/members/${someone.body.id}`), 403, "forbidden");
        }
        expect((await members()).find((m) => m.id === someone.body.id)?.role).toBe("viewer");
      });

      it("hides another organisation's members behind 404", async () => {
        const theirs = await org.post<Member>("/v1/members", {
          email: `t-${unique()}@example.com`,
          role: "viewer",
        });
        await expectError(
          suite.api.patch(`/v1/members/${theirs.body.id}`, { role: "admin" }),
          404,
          "not_found",
        );
        await expectError(suite.api.delete(`/v1/members/${theirs.body.id}`), 404, "not_found");
        expect((await members(suite.api)).map((m) => m.id)).not.toContain(theirs.body.id);
      });
    });

    describe("projects", () => {
      it("renames a project and keeps its slug", async () => {
        const slug = await makeProject(suite.api, `Original ${unique()}`);
        const renamed = await suite.api.patch<Project>(`/v1/projects/${slug}`, { name: "Renamed project" });
        expect(renamed.status).toBe(200);
        expect(renamed.body).toMatchObject({ slug, name: "Renamed project" });
        const read = await suite.api.get<Project>(`/v1/projects/${slug}`);
        expect(read.body).toMatchObject({ slug, name: "Renamed project" });
      });

      it("answers 409 conflict for a duplicate name, in any case, on create and rename, changing nothing", async () => {
        const name = `Taken ${unique()}`;
        const taken = await makeProject(suite.api, name);
        await expectError(suite.api.post("/v1/projects", { name }), 409, "conflict");
        await expectError(suite.api.post("/v1/projects", { name: name.toUpperCase() }), 409, "conflict");
        const other = await makeProject(suite.api);
        await expectError(
          suite.api.patch(`/v1/projects/${other}`, { name: name.toLowerCase() }),
          409,
          "conflict",
        );
        expect((await suite.api.get<Project>(`/v1/projects/${taken}`)).body.name).toBe(name);
        const projects = await listAll<Project>(suite.api, "/v1/projects");
        expect(projects.filter((p) => p.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
      });

      it("deletes a project with its datasets (admin), which then answer 404", async () => {
        const slug = await makeProject(suite.api);
        const { base } = await makeDataset(suite.api, slug, { rows: 2 });
        const { api: member } = await keyFor(suite.api, "member");
        await expectError(member.delete(`/v1/projects/${slug}`), 403, "forbidden");

        expect((await suite.api.delete(`/v1/projects/${slug}`)).status).toBe(204);

        await expectError(suite.api.get(`/v1/projects/${slug}`), 404, "not_found");
        await expectError(suite.api.get(base), 404, "not_found");
        await expectError(suite.api.get(`${base}/rows`), 404, "not_found");
        await expectError(suite.api.delete(`/v1/projects/${slug}`), 404, "not_found");
        expect((await listAll<Project>(suite.api, "/v1/projects")).map((p) => p.slug)).not.toContain(slug);
      });
    });

    describe("datasets", () => {
      const list = (query = "") =>
        listAll<Dataset>(suite.api, `/v1/projects/${suite.project}/datasets`, query);

      it("answers 409 conflict for a duplicate dataset name in the project, in any case", async () => {
        const name = `Golden ${unique()}`;
        await makeDataset(suite.api, suite.project, { name });
        await expectError(
          suite.api.post(`/v1/projects/${suite.project}/datasets`, { name: name.toUpperCase() }),
          409,
          "conflict",
        );
        expect((await list()).filter((d) => d.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
      });

      it("deletes a dataset with its rows and history, which then answer 404", async () => {
        const { base, dataset } = await makeDataset(suite.api, suite.project, { rows: 3 });
        expect((await suite.api.delete(base)).status).toBe(204);
        await expectError(suite.api.get(base), 404, "not_found");
        await expectError(suite.api.get(`${base}/rows/r0`), 404, "not_found");
        await expectError(suite.api.get(`${base}/versions`), 404, "not_found");
        await expectError(suite.api.patch(`${base}/rows/r0`, { output: 1 }), 404, "not_found");
        await expectError(suite.api.delete(base), 404, "not_found");
        expect((await list()).map((d) => d.id)).not.toContain(dataset.id);
      });

      it("sorts the list by name or by last change, either way, and pages in that order", async () => {
        const own = await makeProject(suite.api);
        const names = ["Bravo", "Alpha", "Charlie"];
        for (const name of names) await makeDataset(suite.api, own, { name });
        const sorted = async (query: string) =>
          (await listAll<Dataset>(suite.api, `/v1/projects/${own}/datasets`, query)).map((d) => d.name);

        expect(await sorted("")).toEqual(["Charlie", "Alpha", "Bravo"]);
        expect(await sorted("sortBy=updatedAt&sortDirection=asc")).toEqual(["Bravo", "Alpha", "Charlie"]);
        const byName = await sorted("sortBy=name&sortDirection=asc");
        expect(byName.map((n) => n.toLowerCase())).toEqual(["alpha", "bravo", "charlie"]);
        expect(await sorted("sortBy=name&sortDirection=desc")).toEqual([...byName].reverse());
        expect(await sorted("sortBy=name&sortDirection=asc&limit=1")).toEqual(byName);

        // An edit is a change: the edited dataset comes first by last change.
        const bravo = (
          await suite.api.get<Page<Dataset>>(`/v1/projects/${own}/datasets?sortBy=name`)
        ).body.items.find((d) => d.name === "Bravo") as Dataset;
        expect(
          (await suite.api.patch(`/v1/projects/${own}/datasets/${bravo.slug}`, { description: "now" }))
            .status,
        ).toBe(200);
        expect(await sorted("")).toEqual(["Bravo", "Charlie", "Alpha"]);
      });
    });
  },
);
