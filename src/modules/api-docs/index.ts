export { ApiDocsModule } from './api-docs.module';
export { ApiDocsService } from './api-docs.service';
