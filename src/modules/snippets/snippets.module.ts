import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { SnippetDatabase } from './snippet-database.entity';
import { NativeQuerySnippet } from './snippet.entity';
import { SnippetsController } from './snippets.controller';
import { SnippetsService } from './snippets.service';

@Module({
  imports: [TypeOrmModule.forFeature([NativeQuerySnippet, SnippetDatabase]), WarehouseModule],
  controllers: [SnippetsController],
  providers: [SnippetsService],
  exports: [SnippetsService],
})
export class SnippetsModule {}
