import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';
import type { AuthUser } from '../../common/auth/current-user';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { PersistedSource } from '../../query-engine/metadata';
import { CardAccessService } from '../cards';
import type { WarehouseDatabase } from '../../schema/database.entity';
import { SettingsService } from '../settings';
import { BuildError, PersistedBuilder } from './persisted-builder';
import { canPersist, PersistEngine } from './persisted-ddl';
import type { PersistedInfo } from '../../schema/persisted-info.entity';
import { cacheSchemaName, modelTableName } from './persisted-names';
import { PersistenceRepository, type ModelRow } from './persistence.repository';

export const ENABLED_SETTING = 'persisted-models-enabled';
export const DATABASE_SETTING = 'persist-models-enabled';
export const SITE_ID_SETTING = 'persisted-models-site-id';

/** A build holds its model's lease this long at most; a crashed instance's lease then expires. */
const BUILD_LEASE_MS = 30 * 60_000;

type PersistableDb = WarehouseDatabase & { engine: PersistEngine };

/** The hash of a model's query as stored: the table was built from it, another one makes the table stale. */
export function queryHashOf(datasetQuery: string): string {
  return createHash('sha256').update(datasetQuery).digest('hex');
}

/**
 * Persisted models: the switches (global and per database), persist / refresh / unpersist of one model, and the
 * look-up the query engine reads a persisted model's table through. Builds run in the request (the answer says
 * whether the table was built) or from the scheduler; one instance at a time builds a model (a lease on its row).
 */
@Injectable()
export class PersistenceService {
  readonly instance = randomUUID();

  constructor(
    private readonly repo: PersistenceRepository,
    private readonly builder: PersistedBuilder,
    private readonly settings: SettingsService,
    private readonly cards: CardAccessService,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  // ------------------------------------------------------------------------------------------------ one model

  /** POST /api/card/:id/persist: builds the model's table (again, if it is already persisted). */
  async persist(caller: AuthUser, cardId: number): Promise<void> {
    const { card, db } = await this.persistable(caller, cardId);
    const row = await this.repo.upsert({
      database_id: db.id,
      card_id: card.id,
      question_slug: slug(card.name),
      schema_name: await this.schemaOf(db.id),
      table_name: modelTableName(card.id),
      creator_id: caller.id,
    });
    if (row.state === 'off' || row.state === 'deletable') await this.repo.setState(row.id, 'creating', { error: null });
    await this.refreshRow(row.id, true);
  }

  /** POST /api/card/:id/refresh: rebuilds a persisted model's table; the old one stays in use until the new one is complete. */
  async refresh(caller: AuthUser, cardId: number): Promise<void> {
    await this.persistable(caller, cardId);
    const row = await this.repo.byCard(cardId);
    if (!row || row.state === 'off' || row.state === 'deletable') throw new MessageError('This model is not persisted.');
    await this.refreshRow(row.id, true);
  }

  /** POST /api/card/:id/unpersist: drops the table; queries run the model's own query again. */
  async unpersist(caller: AuthUser, cardId: number): Promise<void> {
    const card = await this.modelFor(caller, cardId);
    const row = await this.repo.byCard(card.id);
    if (!row) return;
    await this.dropRow(row);
  }

  /**
   * Builds one row's table under its lease. `loud`: a failure is answered as a 400 with its message (the request
   * asked for the build); the scheduler only records it. A failed rebuild keeps the previous table in use.
   */
  async refreshRow(id: number, loud: boolean): Promise<boolean> {
    if (!(await this.repo.claimLease(id, this.instance, BUILD_LEASE_MS))) {
      if (loud) throw new MessageError('This model is being persisted by another request right now; try again when it is done.', 409);
      return false;
    }
    try {
      const row = await this.repo.byId(id);
      if (!row) return false;
      const card = await this.repo.card(row.card_id);
      const db = await this.repo.database(row.database_id);
      if (!card || !db || !canPersist(db.engine)) return false;
      await this.repo.setState(id, row.active ? 'refreshing' : 'creating', { refresh_begin: new Date() });
      try {
        const built = await this.builder.build({
          cardId: card.id,
          db: db as PersistableDb,
          schema: row.schema_name,
          table: row.table_name,
          query: JSON.parse(card.dataset_query),
          replacing: row.active,
        });
        await this.repo.setState(id, 'persisted', {
          active: true,
          error: null,
          refresh_end: new Date(),
          query_hash: queryHashOf(card.dataset_query),
          definition: JSON.stringify({
            'field-definitions': built.columns.map((c) => ({
              'field-name': c.name,
              'base-type': c.base_type,
              'display-name': c.display_name,
            })),
          }),
        });
        return true;
      } catch (e) {
        if (!(e instanceof BuildError)) throw e;
        await this.repo.setState(id, 'error', { error: e.message, refresh_end: new Date() });
        if (loud) throw new MessageError(e.message);
        return false;
      }
    } finally {
      await this.repo.releaseLease(id, this.instance);
    }
  }

  /**
   * The card's query changed: a persisted model's table is stale. Queries stop reading it at once (its query hash no
   * longer matches: see source()); it is rebuilt here in the background, or by the scheduler when this fails.
   */
  queryChanged(cardId: number): void {
    const rebuild = async () => {
      const row = await this.repo.byCard(cardId);
      if (!row || row.state === 'off' || row.state === 'deletable' || !(await this.settings.get<boolean>(ENABLED_SETTING))) return;
      await this.refreshRow(row.id, false);
    };
    this.pending = rebuild()
      .catch((e: unknown) =>
        this.logger.warning('Rebuilding a changed persisted model failed', {
          card_id: cardId,
          error: e instanceof Error ? e.message : String(e),
        }),
      )
      .finally(() => (this.pending = null));
  }

  /** The background rebuild under way, if any (tests wait for it). */
  pending: Promise<void> | null = null;

  /** Drops a row's table and the row (the model is no longer persisted). */
  private async dropRow(row: PersistedInfo): Promise<void> {
    // Off first: queries stop reading the table before it goes.
    await this.repo.setState(row.id, 'deletable', { active: false });
    const db = await this.repo.database(row.database_id);
    if (db && canPersist(db.engine)) await this.builder.drop(db as PersistableDb, row.schema_name, row.card_id, row.table_name);
    await this.repo.remove(row.id);
  }

  // ------------------------------------------------------------------------------------------------ databases

  /** POST /api/database/:id/persist (admin): persisting becomes possible on the database; its cache schema is created. */
  async enableDatabase(dbId: number): Promise<void> {
    await this.assertEnabled();
    const db = await this.repo.database(dbId);
    if (!db) throw new NotFoundError();
    assertEngine(db);
    await this.repo.setDatabaseSetting(db.id, DATABASE_SETTING, true);
  }

  /** POST /api/database/:id/unpersist (admin): off, and every persisted table of the database is dropped. */
  async disableDatabase(dbId: number): Promise<void> {
    const db = await this.repo.database(dbId);
    if (!db) throw new NotFoundError();
    await this.repo.setDatabaseSetting(db.id, DATABASE_SETTING, false);
    for (const row of await this.repo.byDatabase(db.id)) await this.dropRow(row);
    if (canPersist(db.engine)) await this.builder.dropSchema(db as PersistableDb, await this.schemaOf(db.id)).catch(() => undefined);
  }

  /**
   * Before the database row is deleted: its persisted tables and cache schema (as unpersisting it does), when it
   * ever persisted anything; other warehouses are not connected to for nothing.
   */
  async databaseDeleting(dbId: number): Promise<void> {
    const db = await this.repo.database(dbId);
    if (!db || (db.settings?.[DATABASE_SETTING] !== true && (await this.repo.byDatabase(dbId)).length === 0)) return;
    await this.disableDatabase(dbId);
  }

  /** Before the card row is deleted: a persisted model's table (its row would go by cascade, leaving the table). */
  async cardDeleting(cardId: number): Promise<void> {
    const row = await this.repo.byCard(cardId);
    if (row) await this.dropRow(row);
  }

  // ------------------------------------------------------------------------------------------------ the engine

  /**
   * The table a query reads instead of the model's query: only when persisting is on (globally and for the
   * database), the table is complete, and it was built from the model's current query (else the model's query runs
   * until the scheduler rebuilds it).
   */
  async source(cardId: number): Promise<PersistedSource | null> {
    const row = await this.repo.byCard(cardId);
    if (!row || !row.active || row.state === 'off' || row.state === 'deletable') return null;
    if (!(await this.settings.get<boolean>(ENABLED_SETTING))) return null;
    const card = await this.repo.card(cardId);
    if (!card || card.type !== 'model' || queryHashOf(card.dataset_query) !== row.query_hash) return null;
    const db = await this.repo.database(row.database_id);
    if (!db || db.settings?.[DATABASE_SETTING] !== true) return null;
    const columns = definitionColumns(row.definition);
    if (!columns.length) return null;
    return { schema: row.schema_name, table: row.table_name, columns };
  }

  // ------------------------------------------------------------------------------------------------ checks

  async assertEnabled(): Promise<void> {
    if (!(await this.settings.get<boolean>(ENABLED_SETTING))) throw new MessageError('Persisting models is not enabled.');
  }

  /** The card (404), writable by the caller (403), a model (400). */
  private async modelFor(caller: AuthUser, cardId: number): Promise<ModelRow> {
    const card = await this.repo.card(cardId);
    if (!card) throw new NotFoundError();
    await this.cards.writable(caller, cardId);
    if (card.type !== 'model') throw new MessageError('Card is not a model');
    return card;
  }

  /** What persist and refresh check: the switches, the card, and a database that can hold the table. */
  private async persistable(caller: AuthUser, cardId: number): Promise<{ card: ModelRow; db: PersistableDb }> {
    await this.assertEnabled();
    const card = await this.modelFor(caller, cardId);
    if (card.archived) throw new MessageError('Archived models cannot be persisted.');
    const db = card.database_id === null ? null : await this.repo.database(card.database_id);
    if (!db) throw new MessageError('The model has no database.');
    assertEngine(db);
    if (db.settings?.[DATABASE_SETTING] !== true) throw new MessageError('Persisting models not enabled for database');
    return { card, db: db as PersistableDb };
  }

  /** The cache schema of a database: named after this server's site id, made once by whichever instance is first. */
  async schemaOf(dbId: number): Promise<string> {
    this.siteId ??= this.loadSiteId().catch((e: unknown) => {
      this.siteId = undefined;
      throw e;
    });
    return cacheSchemaName(await this.siteId, dbId);
  }

  private siteId?: Promise<string>;

  /** Stored once (a claim: the first instance's id wins), read back as stored, not through the settings cache. */
  private async loadSiteId(): Promise<string> {
    const mine = randomUUID();
    if (await this.settings.claim(SITE_ID_SETTING, mine)) return mine;
    const stored = await this.repo.internalSetting(SITE_ID_SETTING);
    if (!stored) throw new Error('the site id of persisted models is missing');
    return stored;
  }
}

function assertEngine(db: WarehouseDatabase): void {
  if (!canPersist(db.engine))
    throw new MessageError(`Persisting models is not supported on ${db.engine === 'sqlite' ? 'SQLite' : db.engine} databases.`);
}

function definitionColumns(definition: string | null): PersistedSource['columns'] {
  if (!definition) return [];
  const parsed = JSON.parse(definition) as {
    'field-definitions'?: Array<{ 'field-name': string; 'base-type': string; 'display-name'?: string }>;
  };
  return (parsed['field-definitions'] ?? []).map((f) => ({
    name: f['field-name'],
    base_type: f['base-type'],
    ...(f['display-name'] ? { display_name: f['display-name'] } : {}),
  }));
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 254);
}
