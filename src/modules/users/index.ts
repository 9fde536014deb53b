export { UsersModule } from './users.module';
export { UsersRepository } from './users.repository';
export { UsersService } from './users.service';
