import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { NativeQuerySnippet } from './snippet.entity';
import { SnippetsController } from './snippets.controller';
import { SnippetsService } from './snippets.service';

@Module({
  imports: [TypeOrmModule.forFeature([NativeQuerySnippet]), WarehouseModule],
  controllers: [SnippetsController],
  providers: [SnippetsService],
  exports: [SnippetsService],
})
export class SnippetsModule {}
