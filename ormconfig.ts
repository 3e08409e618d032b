import { DataSource } from 'typeorm';
import { settingsFromEnvironment } from './src/config/environment.js';
import { dataSourceOptions } from './src/database/data-source-options.js';
import { ENTITIES } from './src/entities.js';

/** The data source of the TypeORM CLI (`npm run migration:generate`, `migration:run`). */
export default new DataSource(
  dataSourceOptions(settingsFromEnvironment().databaseUrl, { entities: ENTITIES }),
);
