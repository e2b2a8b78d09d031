import { DomainError } from "@svc/contracts";
import { datasetClashOf } from "../repositories/datasets";

export const nameTaken = (name: string) =>
  new DomainError(
    "conflict",
    `A dataset named "${name}" already exists in this project; choose another name`,
    {
      name,
    },
  );

export const slugTaken = (name: string, slug: string) =>
  new DomainError(
    "conflict",
    `The name "${name}" makes the slug "${slug}", which another dataset of this project has; choose another name`,
    { name, slug },
  );

/** Runs a write that may break a uniqueness rule, and turns that into the matching 409. */
export async function refusingClashes<T>(name: string, slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const clash = datasetClashOf(error);
    if (clash === "name") throw nameTaken(name);
    if (clash === "slug") throw slugTaken(name, slug);
    throw error;
  }
}
