export { sendWebFile } from './send-web-file';
export { WebPagesModule } from './web-pages.module';
export { WebPagesService } from './web-pages.service';
