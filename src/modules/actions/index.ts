export { ActionsModule } from './actions.module';
