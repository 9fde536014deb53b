import { MessageError } from '../../common/errors/api-errors';
import { quickType, TypeTracker, valueType, widen } from './column-types';
import { detectDelimiter, detectEncoding } from './csv-format';
import { columnNames, tableName } from './upload-names';

describe('CSV detection', () => {
  it('picks the delimiter that splits the lines consistently', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('a;b;c\n1,5;2;3\n')).toBe(';');
    expect(detectDelimiter('a\tb\n"x, y"\t2\n')).toBe('\t');
    expect(detectDelimiter('"a;b",c\n"1;2",3\n')).toBe(',');
    expect(detectDelimiter('single\n1\n')).toBe(',');
  });

  it('tells UTF-8 (with or without BOM) from Latin-1 and refuses other encodings', () => {
    expect(detectEncoding(Buffer.from('\uFEFFa,b\n', 'utf8'), true)).toEqual({ encoding: 'utf-8', skipBytes: 3 });
    expect(detectEncoding(Buffer.from('José,Zoë\n', 'utf8'), true)).toEqual({ encoding: 'utf-8', skipBytes: 0 });
    expect(detectEncoding(Buffer.from('José,Zoë\n', 'latin1'), true)).toEqual({ encoding: 'latin1', skipBytes: 0 });
    // A sample cut inside a multi-byte character is still UTF-8.
    expect(detectEncoding(Buffer.from('aé', 'utf8').subarray(0, 2), false).encoding).toBe('utf-8');
    expect(() => detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0x00]), true)).toThrow(MessageError);
    expect(() => detectEncoding(Buffer.from([0x61, 0x00, 0x62]), true)).toThrow(/Unsupported file encoding/);
  });

  it('classifies values and widens column types', () => {
    expect(
      [
        '1',
        '-20',
        '3000000000',
        '1.5',
        '1e3',
        'TRUE',
        'n',
        '2024-02-29',
        '2024-02-30',
        '2024-01-02 03:04',
        '2024-01-02T03:04:05.123Z',
        '2024-01-02T03:04:05+02:00',
        'x',
        ' ',
      ].map(valueType),
    ).toEqual([
      'int',
      'int',
      'bigint',
      'float',
      'float',
      'boolean',
      'boolean',
      'date',
      'text',
      'datetime',
      'offset-datetime',
      'offset-datetime',
      'text',
      null,
    ]);
    expect(widen('int', 'float')).toBe('float');
    expect(widen('bigint', 'int')).toBe('bigint');
    expect(widen('date', 'datetime')).toBe('datetime');
    expect(widen('int', 'boolean')).toBe('text');
    expect(widen(null, 'date')).toBe('date');
  });

  it('types values in place exactly as valueType does, or leaves them to it', () => {
    const samples = [
      '0',
      '+5',
      '-0',
      '007',
      '123456789',
      '1234567890',
      '2147483648',
      '-',
      '+',
      '.',
      '1.',
      '.5',
      '-.5',
      '+1.25',
      '1.2.3',
      '1e5',
      `${'9'.repeat(299)}.5`,
      '2024-02-29',
      '2023-02-29',
      '2000-02-29',
      '1900-02-29',
      '0099-01-01',
      '0100-01-01',
      '0000-01-01',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-1-01',
      '2024-01-02 03:04',
      '2024-01-02T03:04:05',
      '2024-01-02 03:04:05.123456789',
      '2024-01-02 03:04:05.1234567890',
      '2024-01-02 03:04:05.',
      '2024-01-02 03:04:5',
      '2024-01-02T03:04Z',
      '2024-01-02 03:04:05+02:00',
      '2024-02-30 10:00',
      '2024-01-02x03:04',
      'true',
      'FALSE',
      'Yes',
      'no',
      'T',
      'f',
      'y',
      'N',
      'yess',
      'nah',
      'x',
      'ab1',
      '1a',
      '12-34',
    ];
    for (const v of samples) {
      const text = `,${v};`;
      const quick = quickType(text, 1, 1 + v.length);
      if (quick !== undefined) expect([v, quick]).toEqual([v, valueType(v)]);
    }
    expect(['1', '-20', '1.5', '2024-02-29', '2024-02-30', '2024-01-02 03:04', 'TRUE', 'n'].map((v) => quickType(v, 0, v.length))).toEqual([
      'int',
      'int',
      'float',
      'date',
      'text',
      'datetime',
      'boolean',
      'boolean',
    ]);
  });

  it('keeps a unique integer `id` as the key and generates one otherwise', () => {
    const keyed = new TypeTracker(['id', 'v']);
    keyed.add(['1', 'a']);
    keyed.add(['2', '']);
    expect(keyed.result()).toEqual({ types: ['int', 'text'], pk: 'id' });
    const dup = new TypeTracker(['id', 'v']);
    dup.add(['1', '1']);
    dup.add(['1', '2.5']);
    expect(dup.result()).toEqual({ types: ['int', 'float'], pk: null });
    // Numbers written plainly and other texts are told apart as texts are: 7 and 07 are two keys, 7 twice is not one.
    const mixed = new TypeTracker(['id']);
    for (const v of ['7', '07', '-7', ' 8', '0', '123456789012345', '1234567890123456']) mixed.add([v]);
    expect(mixed.result().pk).toBe('id');
    mixed.add(['8']);
    expect(mixed.result().pk).toBeNull();
    const large = new TypeTracker(['id']);
    for (const v of ['123456789012345', '99999999', '-3']) large.add([v]);
    expect(large.result().pk).toBe('id');
    large.add(['123456789012345']);
    expect(large.result().pk).toBeNull();
    const empty = new TypeTracker(['x']);
    empty.add(['']);
    expect(empty.result().types).toEqual(['text']);
  });

  it('sanitizes names so that nothing of the file reaches SQL unchanged', () => {
    expect(columnNames(['First Name', 'first name', '', '_mb_row_id', 'Prix (€)'], '_mb_row_id')).toEqual([
      'first_name',
      'first_name_2',
      'unnamed_column_3',
      'mb_row_id',
      'prix',
    ]);
    expect(tableName('up_', '../../etc/pa"ss;wd DROP.csv', new Date('2024-05-06T07:08:09Z'), 'ab12')).toBe(
      'up_etc_pa_ss_wd_drop_20240506070809_ab12',
    );
    expect(tableName(null, '...', new Date('2024-05-06T07:08:09Z'))).toMatch(/^upload_20240506070809_[0-9a-f]{4}$/);
  });
});
