export { accessIn, DatabaseAccessService } from './database-access.service';
export { maskDetails, mergeMasked, openDetails, retargetedWithKeptSecret, sealDetails, SECRET_MASK } from './database-details';
export { type Access, DatabasePermissionsRepository } from './database-permissions.repository';
export { QuerySlots } from './query-slots';
export { WarehouseConnections, warehousePoolSize } from './warehouse-connections';
export { castText, escapeLike, LIKE_ESCAPE, quoteIdent, tableRef } from './warehouse-sql';
export { WarehouseModule } from './warehouse.module';
export { type PermissionTable } from './database-permissions.repository';
export * from './table-access';
