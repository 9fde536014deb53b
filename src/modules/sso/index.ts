export { SsoModule } from './sso.module';
