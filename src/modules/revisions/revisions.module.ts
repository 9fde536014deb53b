import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Revision } from '../../schema/revision.entity';
import { RevisionService } from './revision.service';
import { RevisionsController } from './revisions.controller';
import { RevisionsRepository } from './revisions.repository';

@Module({
  imports: [TypeOrmModule.forFeature([Revision])],
  controllers: [RevisionsController],
  providers: [RevisionService, RevisionsRepository],
  exports: [RevisionService],
})
export class RevisionsModule {}
