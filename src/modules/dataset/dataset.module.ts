import { Module } from '@nestjs/common';
import { SnippetsModule } from '../snippets/snippets.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { DatasetController } from './dataset.controller';
import { DatasetService } from './dataset.service';

@Module({
  imports: [WarehouseModule, SnippetsModule],
  controllers: [DatasetController],
  providers: [DatasetService],
})
export class DatasetModule {}
