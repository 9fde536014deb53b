import { Injectable } from '@nestjs/common';
import { parseJson } from '../../common/database/stored-json';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { Reader } from '../../common/auth/shared-grant';
import { DatasetService } from '../dataset';
import { ActionRunner } from './action-runner.service';
import { ActionsRepository, type ActionRow } from './actions.repository';
import { directFieldId, formSettings } from './implicit-parameters';

export const PRIMARY_KEY_ACTIONS_ONLY = 'Values can only be fetched for actions that require a Primary Key.';
const PREFILL_TIMEOUT_MS = 30_000;

/**
 * The current values an update or delete form starts with (Metabase's `fetch-values`): the row is read through the
 * model's own query, narrowed to the primary key, run for whoever asks (a user's data permissions apply; a public
 * link runs the model's query as saved), so a row the model does not show is not found and a column it does not
 * show (sensitive, retired, or left out of its fields) is never read. The answer holds the action's own parameters
 * only, without those its form hides. Query actions have nothing to prefill.
 */
@Injectable()
export class ActionPrefill {
  constructor(
    private readonly repo: ActionsRepository,
    private readonly runner: ActionRunner,
    private readonly dataset: DatasetService,
  ) {}

  async values(action: ActionRow, sent: Record<string, unknown>, who: Reader): Promise<Record<string, unknown>> {
    if (action.type !== 'implicit') return {};
    if (action.kind !== 'row/update' && action.kind !== 'row/delete') throw new MessageError(PRIMARY_KEY_ACTIONS_ONLY);
    const db = await this.runner.databaseOf(action);
    if (!db) throw new NotFoundError();
    this.runner.assertEnabled(db);
    const [shape, model] = await Promise.all([this.runner.implicitShape(action), this.repo.model(action.model_id)]);
    if (!shape || !model) throw new NotFoundError();
    this.runner.assertKnown(
      sent,
      shape.params.map((p) => p.parameter),
    );
    const key = this.runner.primaryKey(shape.table, sent);
    const query = {
      ...parseJson<Record<string, unknown>>(model.dataset_query, {}),
      parameters: key.map(({ col, value }) => ({ type: 'id', target: ['dimension', ['field', col.id, null]], value: [value] })),
    };
    // Never from the cache: a form must start from the row as it is now.
    const result = await this.dataset.run(query, who, AbortSignal.timeout(PREFILL_TIMEOUT_MS), {
      context: 'action',
      cardId: model.id,
      defaultMaxRows: 1,
    });
    if (result.status !== 'completed') throw new MessageError(result.error);
    const row = result.data.rows[0];
    if (!row) throw new NotFoundError();
    const { hidden } = formSettings(action.visualization_settings);
    const paramOf = new Map(shape.params.filter((p) => !hidden.has(p.parameter.id)).map((p) => [p.col.id, p.parameter.id]));
    const out: Record<string, unknown> = {};
    result.data.cols.forEach((col, i) => {
      const fieldId = directFieldId(col);
      const param = fieldId === null ? undefined : paramOf.get(fieldId);
      if (param !== undefined && !(param in out)) out[param] = row[i];
    });
    return out;
  }
}
