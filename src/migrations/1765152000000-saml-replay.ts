import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from './columns';

/**
 * SAML state shared by every instance on the app DB: the AuthnRequests sent and not yet answered
 * (`saml_request`, with the return path they carry, consumed once by the response that names them in
 * `InResponseTo`), and the ids of assertions already accepted (`saml_seen_assertion`) until they expire, so a
 * replayed response is refused by any instance. Expiry instants are epoch milliseconds.
 */
export class SamlReplay1765152000000 implements MigrationInterface {
  name = 'SamlReplay1765152000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createTable(
      new Table({
        name: 'saml_request',
        columns: [
          col.varchar('id', 128, { isPrimary: true, isNullable: false }),
          col.text('return_to'),
          col.bigint('expires_at', { isNullable: false }),
        ],
        indices: [{ name: 'idx_saml_request_expires', columnNames: ['expires_at'] }],
      }),
    );
    await qr.createTable(
      new Table({
        name: 'saml_seen_assertion',
        columns: [col.varchar('id', 256, { isPrimary: true, isNullable: false }), col.bigint('expires_at', { isNullable: false })],
        indices: [{ name: 'idx_saml_seen_assertion_expires', columnNames: ['expires_at'] }],
      }),
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of ['saml_seen_assertion', 'saml_request']) await qr.dropTable(t);
  }
}
