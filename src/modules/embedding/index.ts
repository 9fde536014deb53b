export { EmbeddingModule } from './embedding.module';
