export { SnippetsModule } from './snippets.module';
export { SnippetsService } from './snippets.service';
