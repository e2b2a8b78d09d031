import { type Kysely, sql } from "kysely";

/**
 * An experiment's results and scores are written 1,000 to 100,000 at a time (a batch, a carry-over),
 * and a foreign key checks each row with a trigger of its own: two thirds of the time of carrying
 * 100,000 results over. The rows are only ever written in a transaction that holds the experiment's
 * row (locked, or inserted by it), so that check can never fail. What the keys still did, removing the
 * rows with their experiment however it is deleted (a dataset's or an organization's cascade
 * included), is done here by one statement per deleting statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE experiment_results DROP CONSTRAINT experiment_results_experiment_id_fkey`.execute(db);
  await sql`ALTER TABLE experiment_scores DROP CONSTRAINT experiment_scores_experiment_id_fkey`.execute(db);
  await sql`
    CREATE FUNCTION experiments_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM experiment_scores s USING deleted d WHERE s.experiment_id = d.id;
      DELETE FROM experiment_results r USING deleted d WHERE r.experiment_id = d.id;
      RETURN NULL;
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER experiments_deleted AFTER DELETE ON experiments
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION experiments_deleted()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS experiments_deleted ON experiments`.execute(db);
  await sql`DROP FUNCTION IF EXISTS experiments_deleted()`.execute(db);
  await sql`
    ALTER TABLE experiment_scores ADD CONSTRAINT experiment_scores_experiment_id_fkey
    FOREIGN KEY (experiment_id) REFERENCES experiments (id) ON DELETE CASCADE
  `.execute(db);
  await sql`
    ALTER TABLE experiment_results ADD CONSTRAINT experiment_results_experiment_id_fkey
    FOREIGN KEY (experiment_id) REFERENCES experiments (id) ON DELETE CASCADE
  `.execute(db);
}
