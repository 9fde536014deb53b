import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Revision } from './revision.entity';
import { RevisionService } from './revision.service';

@Module({
  imports: [TypeOrmModule.forFeature([Revision])],
  providers: [RevisionService],
  exports: [RevisionService],
})
export class RevisionsModule {}
