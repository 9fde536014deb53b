export { UsersModule } from './users.module';
export { UsersRepository } from './users.repository';
export { UsersService } from './users.service';
export {
  userAttributes,
  providerAttributes,
  structuredAttributes,
  systemAttributes,
  isAttributeValue,
  isReservedKey,
  TENANT_SLUG_ATTRIBUTE,
  type Attributes,
  type AttributeValue,
  type StructuredAttribute,
} from './user-attributes';
