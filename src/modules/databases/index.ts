export { DatabaseDeleting } from './database-events';
export { toDatabaseView } from './database.view';
export { DatabasesModule } from './databases.module';
export { DatabasesRepository } from './databases.repository';
export { toFieldView } from './field.view';
export { toTableView } from './table.view';
