import { Module } from '@nestjs/common';
import { AppPagesController } from './app-pages.controller';
import { WebPagesController } from './web-pages.controller';
import { WebPagesService } from './web-pages.service';

/** Serves the built web app (web/dist): the application, the public and embed pages, and their assets. */
@Module({
  controllers: [WebPagesController, AppPagesController],
  providers: [WebPagesService],
  exports: [WebPagesService],
})
export class WebPagesModule {}
