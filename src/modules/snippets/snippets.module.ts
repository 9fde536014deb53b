import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseModule } from '../warehouse';
import { SnippetDatabase } from '../../schema/snippet-database.entity';
import { NativeQuerySnippet } from '../../schema/snippet.entity';
import { SnippetsController } from './snippets.controller';
import { SnippetsRepository } from './snippets.repository';
import { SnippetsService } from './snippets.service';

@Module({
  imports: [TypeOrmModule.forFeature([NativeQuerySnippet, SnippetDatabase]), WarehouseModule],
  controllers: [SnippetsController],
  providers: [SnippetsService, SnippetsRepository],
  exports: [SnippetsService],
})
export class SnippetsModule {}
