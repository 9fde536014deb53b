import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionsModule } from '../sessions/sessions.module';
import { Setting } from '../settings/setting.entity';
import { UsersModule } from '../users/users.module';
import { SetupController } from './setup.controller';
import { SetupService } from './setup.service';

@Module({
  imports: [TypeOrmModule.forFeature([Setting]), UsersModule, SessionsModule],
  controllers: [SetupController],
  providers: [SetupService],
})
export class SetupModule {}
