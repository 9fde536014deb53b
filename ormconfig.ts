import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/common/database/data-source-options';

/** The DataSource the TypeORM CLI uses (`npm run migration:run`); the server runs the same migrations at boot. */
export default new DataSource(dataSourceOptions(loadConfig()));
