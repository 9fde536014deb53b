import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { CardsModule } from '../cards/cards.module';
import { SyncModule } from '../sync/sync.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { multerOptions } from './upload-limits';
import { UploadsSettingsCheck } from './uploads-settings.check';
import { UploadsController } from './uploads.controller';
import { UploadsRepository } from './uploads.repository';
import { UploadsService } from './uploads.service';

/** CSV uploads that become tables in the upload database and models on them. */
@Module({
  imports: [MulterModule.registerAsync({ useFactory: multerOptions }), CardsModule, SyncModule, WarehouseModule],
  controllers: [UploadsController],
  providers: [UploadsRepository, UploadsService, UploadsSettingsCheck],
})
export class UploadsModule {}
