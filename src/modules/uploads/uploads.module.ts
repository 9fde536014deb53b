import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { CardsModule } from '../cards';
import { SyncModule } from '../sync';
import { WarehouseModule } from '../warehouse';
import { multerOptions } from './upload-limits';
import { UploadsSettingsCheck } from './uploads-settings.check';
import { CardFromCsvController } from './card-from-csv.controller';
import { TableCsvController } from './table-csv.controller';
import { UploadManagementController } from './upload-management.controller';
import { UploadsRepository } from './uploads.repository';
import { UploadsService } from './uploads.service';

/** CSV uploads that become tables in the upload database and models on them. */
@Module({
  imports: [MulterModule.registerAsync({ useFactory: multerOptions }), CardsModule, SyncModule, WarehouseModule],
  controllers: [CardFromCsvController, TableCsvController, UploadManagementController],
  providers: [UploadsRepository, UploadsService, UploadsSettingsCheck],
})
export class UploadsModule {}
