export { PersistenceModule } from './persistence.module';
