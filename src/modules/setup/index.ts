export { SetupModule } from './setup.module';
