import { Module } from '@nestjs/common';
import { UsersModule } from '../users';
import { WebPagesModule } from '../web-pages';
import { LandingController } from './landing.controller';
import { LandingService } from './landing.service';

@Module({
  imports: [UsersModule, WebPagesModule],
  controllers: [LandingController],
  providers: [LandingService],
})
export class LandingModule {}
