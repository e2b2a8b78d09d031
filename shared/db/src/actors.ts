import { type Actor, actorSchema } from "@svc/contracts";
import { type RawBuilder, sql } from "kysely";

/**
 * The current name of the person an actor is, read beside the actor's columns (docs/decisions/0038):
 * history stores who changed something by id, so that a rename shows on everything they changed.
 * Null for actors that are not people.
 */
export const actorNameOf = (kindColumn: string, idColumn: string): RawBuilder<string | null> =>
  sql<
    string | null
  >`(SELECT u.name FROM users u WHERE ${sql.ref(kindColumn)} = 'user' AND u.id = ${sql.ref(idColumn)})`;

/** An actor from its stored columns and the name `actorNameOf` read for it. */
export function actorOf(kind: string, id: string, name: string | null): Actor {
  const actor: Actor = { kind: actorSchema.shape.kind.parse(kind), id };
  if (actor.kind === "user") actor.name = name ?? "A removed person";
  return actor;
}
