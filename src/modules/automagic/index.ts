export { AutomagicModule } from './automagic.module';
