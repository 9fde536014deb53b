export { UtilModule } from './util.module';
