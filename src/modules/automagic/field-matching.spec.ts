import { bindDimensions, candidates, chooseTemplate, fieldKind, matchScore } from './field-matching';
import { TEMPLATES } from './templates';
import { ordersRoot, sampleField } from './xray-fixture';

describe('x-ray field matching', () => {
  const root = ordersRoot();
  const byName = (n: string) => root.fields.find((f) => f.name === n)!;

  it('matches by semantic type with is-a (Price is a Currency) and by base type', () => {
    const price = sampleField(1, 1, 'PRICE', 'type/Float', 'type/Price');
    expect(matchScore(price, { semantic: 'type/Currency', score: 80 })).toBe(80);
    expect(matchScore(price, { semantic: 'type/Income', score: 100 })).toBeNull();
    expect(matchScore(byName('CREATED_AT'), { base: 'type/DateTime', score: 60 })).toBe(60);
  });

  it('keeps keys out of non-key dimensions and lets key dimensions take only keys', () => {
    expect(matchScore(byName('ID'), { base: 'type/Number', score: 50 })).toBeNull();
    expect(matchScore(byName('USER_ID'), { semantic: 'type/FK', score: 100 })).toBe(100);
    expect(matchScore(byName('TOTAL'), { semantic: 'type/FK', score: 100 })).toBeNull();
  });

  it('takes linked fields only where the matcher allows it, below own fields', () => {
    expect(matchScore(byName('CATEGORY'), { semantic: 'type/Category', score: 90 })).toBeNull();
    expect(matchScore(byName('CATEGORY'), { semantic: 'type/Category', score: 90, linked: true })).toBe(60);
  });

  it('leaves names, titles and categories with many values out of category dimensions', () => {
    const m = [{ semantic: 'type/Category', base: 'type/Text', score: 90, linked: true }];
    expect(candidates(root.fields, m).map((c) => c.field.name)).toEqual(['CATEGORY', 'STATE', 'SOURCE']);
  });

  it('ranks the best-scoring candidate first: a named bonus beats table order', () => {
    const income = TEMPLATES.table[0].dimensions.Income;
    expect(candidates(root.fields, income).map((c) => c.field.name)).toEqual(['TOTAL', 'SUBTOTAL', 'TAX', 'DISCOUNT']);
    const bound = bindDimensions(TEMPLATES.table[0], root.fields);
    expect(bound.get('Timestamp')![0].field.name).toBe('CREATED_AT');
    expect(bound.get('Buyer')![0].field.name).toBe('USER_ID');
  });

  it('chooses the table kind from its fields', () => {
    expect(chooseTemplate(TEMPLATES.table, root.fields).name).toBe('TransactionTable');
    const people = [
      sampleField(1, 3, 'EMAIL', 'type/Text', 'type/Email'),
      sampleField(2, 3, 'CREATED_AT', 'type/DateTime', 'type/CreationTimestamp'),
    ];
    expect(chooseTemplate(TEMPLATES.table, people).name).toBe('UserTable');
    const reviews = [
      sampleField(1, 4, 'PRODUCT_ID', 'type/Integer', 'type/FK'),
      sampleField(2, 4, 'CREATED_AT', 'type/DateTime', 'type/CreationTimestamp'),
    ];
    expect(chooseTemplate(TEMPLATES.table, reviews).name).toBe('EventTable');
    expect(chooseTemplate(TEMPLATES.table, [sampleField(1, 5, 'X', 'type/Text', null)]).name).toBe('GenericTable');
  });

  it('tells field kinds apart: date, location, number, category', () => {
    expect(fieldKind(byName('CREATED_AT'))).toBe('date');
    expect(fieldKind(byName('STATE'))).toBe('location');
    expect(fieldKind(byName('TOTAL'))).toBe('number');
    expect(fieldKind(byName('CATEGORY'))).toBe('category');
    expect(fieldKind(byName('ID'))).toBe('category');
  });
});
