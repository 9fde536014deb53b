export { LandingModule } from './landing.module';
