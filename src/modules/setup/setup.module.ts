import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions';
import { UsersModule } from '../users';
import { SessionPropertiesController } from './session-properties.controller';
import { SetupController } from './setup.controller';
import { SetupService } from './setup.service';

/** First-run setup, and the session properties that say whether it is still to be done. */
@Module({
  imports: [UsersModule, SessionsModule],
  controllers: [SetupController, SessionPropertiesController],
  providers: [SetupService],
})
export class SetupModule {}
