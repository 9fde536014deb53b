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
    // Until now every JWT and SAML sign-in overwrote login_attributes with the provider's claims. Left there, those
    // stale claims would outrank every later sign-in; moved, the next sign-in replaces them and what an admin sets
    // from now on stays (metabase#61940 moves them the same way for JWT users).
    await qr.query(
      `UPDATE core_user SET jwt_attributes = login_attributes, login_attributes = NULL
       WHERE sso_source IN ('jwt', 'saml') AND login_attributes IS NOT NULL`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    // Back to one map: the provider's values under the admin's, as they were in force.
    await qr.query(`UPDATE core_user SET login_attributes = jwt_attributes WHERE login_attributes IS NULL AND jwt_attributes IS NOT NULL`);
    await qr.dropColumn('core_user', 'jwt_attributes');
  }
}
