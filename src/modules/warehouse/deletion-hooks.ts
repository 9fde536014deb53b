import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '../../common/logging/app-logger';

type Hook = (id: number) => Promise<void>;

/**
 * What must happen in a warehouse before a database or card row is deleted from the app DB, while the rows that
 * say where to do it still exist (a persisted model's table: its rows go with the card's by cascade). Modules that
 * keep such things register here, so that the deleting modules need not know them (the persistence module depends
 * on cards and databases, not the other way round). A hook that fails is logged and does not stop the deletion:
 * the user asked for the row to go, and an unreachable warehouse must not keep it.
 */
@Injectable()
export class DeletionHooks {
  private readonly hooks = { database: [] as Hook[], card: [] as Hook[] };

  constructor(@Inject(AppLogger) private readonly logger: AppLogger) {}

  onDatabase(hook: Hook): void {
    this.hooks.database.push(hook);
  }

  onCard(hook: Hook): void {
    this.hooks.card.push(hook);
  }

  async database(id: number): Promise<void> {
    await this.run('database', id);
  }

  async card(id: number): Promise<void> {
    await this.run('card', id);
  }

  private async run(kind: 'database' | 'card', id: number): Promise<void> {
    for (const hook of this.hooks[kind]) {
      await hook(id).catch((e: unknown) => this.logger.warning(`Clean-up before deleting a ${kind} failed`, { [`${kind}_id`]: id, error: e instanceof Error ? e.message : String(e) }));
    }
  }
}
