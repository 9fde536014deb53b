export { PulseModule } from './pulse.module';
