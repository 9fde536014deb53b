import { MessageError } from '../../common/errors/api-errors';
import { mapParameters } from './parameter-mapping';

describe('mapParameters', () => {
  const params = [
    { id: 'cat', type: 'string/=', slug: 'category' },
    { id: 'st', type: 'location/state', slug: 'state', default: ['TX'] },
    { id: 'unused', type: 'number/=' },
  ];
  const field = ['dimension', ['field', 10, null]];
  const tag = ['variable', ['template-tag', 'state']];
  const mappings = [
    { parameter_id: 'cat', card_id: 1, target: field },
    { parameter_id: 'st', card_id: 2, target: tag },
    { parameter_id: 'cat', target: ['dimension', ['field', 11, null]] },
  ];

  it("maps each value through the dashcard's mappings for that card, with the dashboard parameter's type", () => {
    expect(mapParameters(5, params, mappings, 1, 1, [{ id: 'cat', value: ['Gizmo'] }])).toEqual([
      { id: 'cat', type: 'string/=', slug: 'category', target: field, value: ['Gizmo'] },
      { id: 'cat', type: 'string/=', slug: 'category', target: ['dimension', ['field', 11, null]], value: ['Gizmo'] },
    ]);
  });

  it('applies defaults of parameters not sent, onto series cards too', () => {
    expect(mapParameters(5, params, mappings, 1, 2, [])).toEqual([
      { id: 'st', type: 'location/state', slug: 'state', target: tag, value: ['TX'] },
    ]);
    expect(mapParameters(5, params, mappings, 1, 2, [{ id: 'st', value: null }])).toEqual([]);
  });

  it('refuses a value for a parameter the dashboard lacks', () => {
    expect(() => mapParameters(5, params, mappings, 1, 1, [{ id: 'nope', value: 1 }])).toThrow(MessageError);
    expect(() => mapParameters(5, params, mappings, 1, 1, [{ id: 'nope', value: 1 }])).toThrow(
      'Dashboard 5 does not have a parameter with the ID "nope".',
    );
  });
});
