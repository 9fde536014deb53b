import { Module } from '@nestjs/common';
import { WebPagesController } from './web-pages.controller';
import { WebPagesService } from './web-pages.service';

/** Serves the built web app (web/dist): the public and embed pages and their assets. */
@Module({
  controllers: [WebPagesController],
  providers: [WebPagesService],
})
export class WebPagesModule {}
