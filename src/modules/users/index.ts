export { UsersModule } from './users.module';
export { UsersRepository } from './users.repository';
export { UsersService } from './users.service';
export {
  userAttributes,
  providerAttributes,
  structuredAttributes,
  type Attributes,
  type AttributeValue,
  type StructuredAttribute,
} from './user-attributes';
