import type { Response } from 'express';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import { writeResultJson } from '../../common/http/write-result-json';
import type { CardRow } from '../../schema/card.rows';
import type { CardRunner } from '../cards';
import type { SharedQueriesService } from '../public-sharing';
import { EmbedRunsService, exportFormat, PREVIEW_MAX_ROWS } from './embed-runs.service';
import type { EmbedGrant } from './embed-token.guard';

jest.mock('../../common/http/write-result-json', () => ({ writeResultJson: jest.fn(async () => undefined) }));

/** EmbedRunsService: an embed's runs take the token's and the viewer's values by the whitelist's rules; previews are capped. */
describe('EmbedRunsService', () => {
  const card = {
    id: 3,
    parameters: JSON.stringify([
      { id: 'p-region', slug: 'region', type: 'category', target: ['variable', ['template-tag', 'region']] },
      { id: 'p-n', slug: 'n', type: 'number/=', target: ['variable', ['template-tag', 'n']] },
    ]),
    dataset_query: '{}',
  } as unknown as CardRow;
  const grant = (preview: boolean): EmbedGrant =>
    ({
      // As the embed token guard builds it for a question token naming card 3.
      shared: { via: 'embed', model: 'card', id: 3 },
      claims: { resource: 'question', id: 3, params: { region: 'West' } },
      preview,
      whitelist: { region: 'locked', n: 'enabled' },
      card,
    }) as unknown as EmbedGrant;
  const res = () => ({ on: jest.fn(), status: jest.fn().mockReturnThis(), json: jest.fn() }) as unknown as Response;

  function setup() {
    const runner = {
      run: jest.fn().mockResolvedValue({ status: 'completed', data: { rows: [], cols: [] }, row_count: 0 }),
      pivot: jest.fn().mockResolvedValue({ status: 'completed', data: { rows: [], cols: [] }, row_count: 0 }),
    };
    return { service: new EmbedRunsService({} as SharedQueriesService, runner as unknown as CardRunner), runner };
  }

  it("runs the card with the token's locked value and the viewer's enabled one, answered 202", async () => {
    const m = setup();
    const g = grant(false);
    await m.service.card(g, { n: '4' }, res(), { pivot: false });
    const [who, ran, run] = m.runner.run.mock.calls[0];
    expect(who).toBe(g);
    expect(ran).toBe(card);
    expect(run).toEqual({
      parameters: [
        { id: 'p-region', type: 'category', target: ['variable', ['template-tag', 'region']], slug: 'region', value: 'West' },
        { id: 'p-n', type: 'number/=', target: ['variable', ['template-tag', 'n']], slug: 'n', value: ['4'] },
      ],
      context: 'embedded-question',
    });
    expect(m.runner.pivot).not.toHaveBeenCalled();
    expect((writeResultJson as jest.Mock).mock.calls[0][1]).toBe(202);
  });

  it('caps the rows of a preview, and refuses a viewer value for a locked parameter', async () => {
    const m = setup();
    await m.service.card(grant(true), {}, res(), { pivot: true });
    expect(m.runner.pivot.mock.calls[0][2]).toEqual({
      parameters: [{ id: 'p-region', type: 'category', target: ['variable', ['template-tag', 'region']], slug: 'region', value: 'West' }],
      context: 'embedded-question',
      maxRows: PREVIEW_MAX_ROWS,
    });
    await expect(m.service.card(grant(false), { region: 'East' }, res(), { pivot: false })).rejects.toBeInstanceOf(MessageError);
    expect(m.runner.run).not.toHaveBeenCalled();
  });

  it('takes only the known export formats', () => {
    expect(exportFormat('xlsx')).toBe('xlsx');
    expect(() => exportFormat('pdf')).toThrow(ValidationError);
  });
});
