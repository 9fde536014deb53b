import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from './columns';

/**
 * What the identity provider said of a user at their last sign-in (JWT claims, SAML attributes), kept apart from the
 * admin's `login_attributes` so that a sign-in never erases what an admin set. JSON text, as `login_attributes` is.
 */
export class UserAttributes1765584000000 implements MigrationInterface {
  name = 'UserAttributes1765584000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn('core_user', new TableColumn(col.text('jwt_attributes')));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('core_user', 'jwt_attributes');
  }
}
