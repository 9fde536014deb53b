import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { LandingController } from './landing.controller';
import { LandingService } from './landing.service';

@Module({
  imports: [UsersModule],
  controllers: [LandingController],
  providers: [LandingService],
})
export class LandingModule {}
