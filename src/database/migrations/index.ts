import type { MigrationInterface } from 'typeorm';

/** Every migration in the order it runs; the app and the migration CLI share this list. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [];
