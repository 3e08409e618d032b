import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's runs list (issue 31): each run's configurations kept on its row, as its counts
 * are (each result batch adds its own), so a page of 25 runs does not read 25 runs' slots (17 ms
 * each for a 20,000-slot run); filled here from the slots of the runs there are. (A name's runs
 * are read by `IDX_test_run_project_name_created`, `OverviewIndexes`'.)
 */
export class RunsListContext1795860000000 implements MigrationInterface {
  name = 'RunsListContext1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "test_run" ADD "configurations" character varying(100) array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(
      `UPDATE test_run SET configurations = slots.configurations
         FROM (SELECT test_run_id,
                      array_agg(DISTINCT configuration ORDER BY configuration) AS configurations
                 FROM test_run_case WHERE configuration <> '' GROUP BY test_run_id) slots
        WHERE test_run.id = slots.test_run_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "test_run" DROP COLUMN "configurations"`);
  }
}
