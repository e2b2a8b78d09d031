import { callOperation } from "@svc/bus";
import { newId, operations, type Project, type RequestContext } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { authSuite, expectCreatedIn, failureOf, raw } from "../test-support";

const foreignCursor =
  "is not a cursor this list issued; pass a page's nextCursor unchanged, or start again without a cursor";
const invalidCursor = {
  status: 400,
  code: "validation_failed",
  message: `Request is invalid: query.cursor: ${foreignCursor}`,
  details: { issues: [{ path: "query.cursor", message: foreignCursor, code: "custom" }] },
};

const nameTaken = (name: string) => ({
  status: 409,
  code: "conflict",
  message: `A project named "${name}" already exists in this organisation (names are compared without regard to case); choose another name`,
  details: { name },
});

/** The order lists promise: creation time, then id for projects created in the same millisecond. */
const inListOrder = (projects: Project[]): Project[] =>
  [...projects].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

describe.each(availableBackends())("projects (%s)", (backendName) => {
  const auth = authSuite(backendName);

  const createProject = (context: RequestContext, name: string) =>
    callOperation(auth.bus, operations.createProject, context, raw({ body: { name } }));
  const getProject = (context: RequestContext, projectSlug: string) =>
    callOperation(auth.bus, operations.getProject, context, raw({ params: { projectSlug } }));
  const listPage = (context: RequestContext, query: Record<string, unknown>) =>
    callOperation(auth.bus, operations.listProjects, context, raw({ query }));

  const updateProject = (context: RequestContext, projectSlug: string, name: string) =>
    callOperation(
      auth.bus,
      operations.updateProject,
      context,
      raw({ params: { projectSlug }, body: { name } }),
    );
  const deleteProject = (context: RequestContext, projectSlug: string) =>
    callOperation(auth.bus, operations.deleteProject, context, raw({ params: { projectSlug } }));

  /** A dataset with a column, a row and a version, written as the dataset-writer would. */
  async function makeDataset(project: Project): Promise<string> {
    const id = newId();
    await auth.db
      .insertInto("datasets")
      .values({
        id,
        organization_id: project.organizationId,
        project_id: project.id,
        slug: "golden",
        name: "Golden",
        description: null,
        current_version: 1,
      })
      .execute();
    await auth.db
      .insertInto("dataset_columns")
      .values({
        dataset_id: id,
        identifier: "input",
        name: "Input",
        kind: "builtin",
        field: "input",
        position: 0,
      })
      .execute();
    await auth.db
      .insertInto("dataset_rows")
      .values({
        dataset_id: id,
        row_id: "r1",
        input: '"hello"',
        output: "null",
        expected_output: "null",
        metadata: "null",
        custom: "{}",
        created_at: new Date(),
        version: 1,
      })
      .execute();
    await auth.db
      .insertInto("dataset_versions")
      .values({
        id: newId(),
        dataset_id: id,
        version: 1,
        operation: "insert",
        rows_inserted: 1,
        rows_updated: 0,
        rows_deleted: 0,
        actor_kind: "apiKey",
        actor_id: "k",
      })
      .execute();
    return id;
  }

  const datasetTables = ["datasets", "dataset_columns", "dataset_rows", "dataset_versions"] as const;
  const countDatasetRecords = async (datasetId: string) => {
    const counts: Record<string, number> = {};
    for (const table of datasetTables) {
      const column = table === "datasets" ? "id" : "dataset_id";
      const rows = await auth.db.selectFrom(table).select(column).where(column, "=", datasetId).execute();
      counts[table] = rows.length;
    }
    return counts;
  };

  /** Creates `count` projects, several at once so that some share a creation millisecond. */
  async function makeProjects(context: RequestContext, count: number): Promise<Project[]> {
    const made: Project[] = [];
    for (let start = 0; start < count; start += 10) {
      const batch = Array.from({ length: Math.min(10, count - start) }, (_, i) =>
        createProject(context, `Project ${start + i}`),
      );
      made.push(...(await Promise.all(batch)));
    }
    return inListOrder(made);
  }

  it("creates a project with a slug from its name and reads it back", async () => {
    const { organization, owner } = await auth.makeOrganization();
    const member = await auth.makeKey(owner, "member");

    const project = await createProject(member.context, "Customer Support Bot");

    expectCreatedIn(organization.id, project, { slug: "customer-support-bot", name: "Customer Support Bot" });
    expect(await getProject(member.context, "customer-support-bot")).toEqual(project);
  });

  it("refuses a project whose slug is taken in the organisation", async () => {
    const { owner } = await auth.makeOrganization();
    await createProject(owner, "Search Quality");

    expect(await failureOf(createProject(owner, "search   quality!"))).toEqual({
      status: 409,
      code: "conflict",
      message:
        'A project with the slug "search-quality" already exists in this organisation; choose another name',
      details: { slug: "search-quality" },
    });
  });

  it("refuses a project whose name is taken in the organisation in another case, even with a free slug", async () => {
    const { owner } = await auth.makeOrganization();
    const original = await createProject(owner, "Alpha");
    await updateProject(owner, original.slug, "Beta");

    expect(await failureOf(createProject(owner, "BETA"))).toEqual(nameTaken("BETA"));
    expect((await listPage(owner, {})).items.map((p) => [p.slug, p.name])).toEqual([["alpha", "Beta"]]);
  });

  it("renames a project and keeps its slug", async () => {
    const { owner } = await auth.makeOrganization();
    const member = await auth.makeKey(owner, "member");
    const project = await createProject(owner, "Support Bot");

    const renamed = await updateProject(member.context, "support-bot", "  Helpdesk Assistant ");

    expect(renamed).toEqual({ ...project, name: "Helpdesk Assistant", updatedAt: renamed.updatedAt });
    expect(renamed.updatedAt >= project.updatedAt).toBe(true);
    expect(await getProject(owner, "support-bot")).toEqual(renamed);
    expect(await failureOf(getProject(owner, "helpdesk-assistant"))).toMatchObject({ status: 404 });
  });

  it("lets a project take its own name in another case", async () => {
    const { owner } = await auth.makeOrganization();
    await createProject(owner, "support bot");

    expect((await updateProject(owner, "support-bot", "Support Bot")).name).toBe("Support Bot");
  });

  it("refuses to rename a project to another project's name, in any case, and changes nothing", async () => {
    const { owner } = await auth.makeOrganization();
    await createProject(owner, "Search Quality");
    const other = await createProject(owner, "Other");

    expect(await failureOf(updateProject(owner, "other", "search QUALITY"))).toEqual(
      nameTaken("search QUALITY"),
    );
    expect(await getProject(owner, "other")).toEqual(other);
  });

  it("gives one of two concurrent renames to the same name a conflict, never an error", async () => {
    const { owner } = await auth.makeOrganization();
    await createProject(owner, "One");
    await createProject(owner, "Two");

    const outcomes = await Promise.allSettled([
      updateProject(owner, "one", "Same"),
      updateProject(owner, "two", "same"),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = outcomes.find((outcome) => outcome.status === "rejected");
    expect(await failureOf(Promise.reject(rejected?.reason))).toMatchObject({
      status: 409,
      code: "conflict",
    });
  });

  it("deletes a project with its datasets, then answers 404 for it", async () => {
    const { owner } = await auth.makeOrganization();
    const project = await createProject(owner, "Doomed");
    const kept = await createProject(owner, "Kept");
    const doomedDataset = await makeDataset(project);
    const keptDataset = await makeDataset(kept);
    expect(await countDatasetRecords(doomedDataset)).toEqual({
      datasets: 1,
      dataset_columns: 1,
      dataset_rows: 1,
      dataset_versions: 1,
    });

    expect(await deleteProject(owner, "doomed")).toBeNull();

    const notFound = {
      status: 404,
      code: "not_found",
      message: 'Project "doomed" not found; list the projects to see their slugs',
    };
    expect(await failureOf(getProject(owner, "doomed"))).toEqual(notFound);
    expect(await failureOf(deleteProject(owner, "doomed"))).toEqual(notFound);
    expect(await failureOf(updateProject(owner, "doomed", "Back"))).toEqual(notFound);
    expect(await countDatasetRecords(doomedDataset)).toEqual({
      datasets: 0,
      dataset_columns: 0,
      dataset_rows: 0,
      dataset_versions: 0,
    });
    expect((await countDatasetRecords(keptDataset)).datasets).toBe(1);
    expect((await listPage(owner, {})).items).toEqual([kept]);
    expect((await createProject(owner, "Doomed")).slug).toBe("doomed");
  });

  it("lets a member rename projects but only an admin delete them, and a viewer neither", async () => {
    const { owner } = await auth.makeOrganization();
    const member = await auth.makeKey(owner, "member");
    const viewer = await auth.makeKey(owner, "viewer");
    const admin = await auth.makeKey(owner, "admin");
    await createProject(owner, "Shared");

    expect(await failureOf(deleteProject(member.context, "shared"))).toEqual({
      status: 403,
      code: "forbidden",
      message: "This key's role (member) may not do this; deleteProject needs admin or higher",
    });
    expect(await failureOf(updateProject(viewer.context, "shared", "Mine"))).toEqual({
      status: 403,
      code: "forbidden",
      message: "This key's role (viewer) may not do this; updateProject needs member or higher",
    });
    expect((await getProject(owner, "shared")).name).toBe("Shared");
    expect(await deleteProject(admin.context, "shared")).toBeNull();
  });

  it("hides another organisation's project from rename and delete", async () => {
    const ours = await auth.makeOrganization();
    const theirs = await auth.makeOrganization();
    const their = await createProject(theirs.owner, "Secret");

    expect(await failureOf(updateProject(ours.owner, "secret", "Mine"))).toMatchObject({ status: 404 });
    expect(await failureOf(deleteProject(ours.owner, "secret"))).toMatchObject({ status: 404 });
    expect(await getProject(theirs.owner, "secret")).toEqual(their);
  });

  it("lets two organisations use the same slug, and hides each one's projects from the other", async () => {
    const ours = await auth.makeOrganization();
    const theirs = await auth.makeOrganization();
    await createProject(theirs.owner, "Secret");

    expect(await failureOf(getProject(ours.owner, "secret"))).toEqual({
      status: 404,
      code: "not_found",
      message: 'Project "secret" not found; list the projects to see their slugs',
    });
    expect((await listPage(ours.owner, {})).items).toEqual([]);
    const mine = await createProject(ours.owner, "Secret");
    expect(mine.organizationId).toBe(ours.organization.id);
    expect((await getProject(theirs.owner, "secret")).organizationId).toBe(theirs.organization.id);
  });

  it("answers 404 for an unknown project", async () => {
    const { owner } = await auth.makeOrganization();
    expect(await failureOf(getProject(owner, "nothing-here"))).toMatchObject({
      status: 404,
      code: "not_found",
    });
  });

  it("lets a viewer read projects but not create them", async () => {
    const { owner } = await auth.makeOrganization();
    const viewer = await auth.makeKey(owner, "viewer");
    await createProject(owner, "Visible");

    expect((await listPage(viewer.context, {})).items.map((p) => p.slug)).toEqual(["visible"]);
    expect(await failureOf(createProject(viewer.context, "Mine"))).toEqual({
      status: 403,
      code: "forbidden",
      message: "This key's role (viewer) may not do this; createProject needs member or higher",
    });
  });

  it("pages through 120 projects 50 at a time, returning each exactly once in creation order", async () => {
    const { owner } = await auth.makeOrganization();
    const made = await makeProjects(owner, 120);

    const pages = [];
    let cursor: string | null = null;
    do {
      const page = await listPage(owner, cursor === null ? { limit: "50" } : { limit: "50", cursor });
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== null);

    expect(pages.map((page) => [page.items.length, page.hasMore, page.nextCursor !== null])).toEqual([
      [50, true, true],
      [50, true, true],
      [20, false, false],
    ]);
    const seen = pages.flatMap((page) => page.items);
    expect(seen).toEqual(made);
    expect(new Set(seen.map((p) => p.id)).size).toBe(120);
  });

  it("breaks ties between projects created in the same millisecond by id, at every page boundary", async () => {
    const { organization, owner } = await auth.makeOrganization();
    await makeProjects(owner, 30);
    const sameMoment = new Date("2026-01-01T00:00:00.000Z");
    await auth.db
      .updateTable("projects")
      .set({ created_at: sameMoment })
      .where("organization_id", "=", organization.id)
      .execute();

    const seen: Project[] = [];
    let cursor: string | null = null;
    do {
      const page = await listPage(owner, cursor === null ? { limit: "7" } : { limit: "7", cursor });
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);

    expect(seen).toHaveLength(30);
    expect(seen.map((p) => p.id)).toEqual(seen.map((p) => p.id).sort());
  });

  it("keeps its place when projects are created between pages", async () => {
    const { owner } = await auth.makeOrganization();
    const made = await makeProjects(owner, 5);

    const first = await listPage(owner, { limit: "3" });
    // A later millisecond: what "created after the first page" means for a (createdAt, id) order.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await createProject(owner, "Late arrival");
    const second = await listPage(owner, { limit: "3", cursor: first.nextCursor });

    expect(first.items.map((p) => p.id)).toEqual(made.slice(0, 3).map((p) => p.id));
    expect(second).toEqual({
      items: [...made.slice(3), late],
      nextCursor: null,
      hasMore: false,
    });
  });

  it("pages 50 projects at a time by default", async () => {
    const { owner } = await auth.makeOrganization();
    await makeProjects(owner, 51);

    const page = await listPage(owner, {});

    expect(page.items).toHaveLength(50);
    expect(page.hasMore).toBe(true);
  });

  it("rejects a cursor it did not give out", async () => {
    const { owner } = await auth.makeOrganization();
    const wellFormedButWrong = Buffer.from(JSON.stringify({ t: "yesterday", i: "x" })).toString("base64url");

    for (const cursor of ["garbage", "%%%", wellFormedButWrong]) {
      expect(await failureOf(listPage(owner, { cursor }))).toEqual(invalidCursor);
    }
  });

  it("rejects a page size outside 1-200", async () => {
    const { owner } = await auth.makeOrganization();

    expect(await failureOf(listPage(owner, { limit: "201" }))).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Request is invalid: query.limit: must be at most 200",
    });
    expect(await failureOf(listPage(owner, { limit: "0" }))).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Request is invalid: query.limit: must be at least 1",
    });
  });
});
