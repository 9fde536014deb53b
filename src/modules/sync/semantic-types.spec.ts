import { chooseHasFieldValues } from './analyze';
import { WarehouseField } from '../../schema/field.entity';
import { displayName, looksSecret, semanticTypeFromName, semanticTypeFromValues } from './semantic-types';

const col = (name: string, baseType = 'type/Text', extra: { isPk?: boolean; isFk?: boolean } = {}) => ({
  name,
  baseType,
  isPk: false,
  isFk: false,
  ...extra,
});
const fromName = (name: string, baseType?: string) => semanticTypeFromName(col(name, baseType));

describe('semanticTypeFromName', () => {
  it('marks keys first, whatever the name says', () => {
    expect(semanticTypeFromName(col('email', 'type/Text', { isPk: true }))).toBe('type/PK');
    expect(semanticTypeFromName(col('city', 'type/Text', { isFk: true }))).toBe('type/FK');
    expect(semanticTypeFromName(col('id', 'type/Integer', { isPk: true, isFk: true }))).toBe('type/PK');
    expect(fromName('id', 'type/Integer')).toBeNull(); // an `id` that is no primary key (a view's column) is nothing special
  });

  it.each<[string, string, string]>([
    ['email', 'type/Text', 'type/Email'],
    ['E_Mail', 'type/Text', 'type/Email'],
    ['billing_email', 'type/Text', 'type/Email'],
    ['EMAIL_ADDRESS', 'type/Text', 'type/Email'],
    ['website', 'type/Text', 'type/URL'],
    ['profile_url', 'type/Text', 'type/URL'],
    ['avatar', 'type/Text', 'type/ImageURL'],
    ['image_url', 'type/Text', 'type/ImageURL'],
    ['product_image_url', 'type/Text', 'type/ImageURL'],
    ['latitude', 'type/Float', 'type/Latitude'],
    ['LAT', 'type/Decimal', 'type/Latitude'],
    ['lng', 'type/Float', 'type/Longitude'],
    ['pickup_longitude', 'type/Float', 'type/Longitude'],
    ['zip', 'type/Text', 'type/ZipCode'],
    ['postal_code', 'type/Integer', 'type/ZipCode'],
    ['city', 'type/Text', 'type/City'],
    ['shipping_city', 'type/Text', 'type/City'],
    ['state', 'type/Text', 'type/State'],
    ['province', 'type/Text', 'type/State'],
    ['country_code', 'type/Text', 'type/Country'],
    ['title', 'type/Text', 'type/Title'],
    ['job_title', 'type/Text', 'type/Title'],
    ['name', 'type/Text', 'type/Name'],
    ['first_name', 'type/Text', 'type/Name'],
    ['customer_name', 'type/Text', 'type/Name'],
    ['company', 'type/Text', 'type/Company'],
    ['vendor_name', 'type/Text', 'type/Company'],
    ['body', 'type/Text', 'type/Description'],
    ['notes', 'type/Text', 'type/Description'],
    ['category', 'type/Text', 'type/Category'],
    ['status', 'type/Text', 'type/Category'],
    ['event_type', 'type/Text', 'type/Category'],
    ['price', 'type/Decimal', 'type/Price'],
    ['unit_price', 'type/Float', 'type/Price'],
    ['discount', 'type/Float', 'type/Discount'],
    ['total', 'type/Decimal', 'type/Currency'],
    ['tax_amount', 'type/Integer', 'type/Currency'],
    ['quantity', 'type/Integer', 'type/Quantity'],
    ['num_items', 'type/BigInteger', 'type/Quantity'],
    ['page_count', 'type/Integer', 'type/Quantity'],
    ['rating', 'type/Float', 'type/Score'],
    ['tax_pct', 'type/Float', 'type/Percentage'],
    ['created_at', 'type/DateTime', 'type/CreationTimestamp'],
    ['CREATED_AT', 'type/DateTimeWithLocalTZ', 'type/CreationTimestamp'],
    ['updated_at', 'type/DateTime', 'type/UpdatedTimestamp'],
    ['canceled_at', 'type/Date', 'type/CancelationTimestamp'],
    ['birth_date', 'type/Date', 'type/Birthdate'],
    ['BIRTHDATE', 'type/Date', 'type/Birthdate'],
    ['signup_date', 'type/Date', 'type/JoinTimestamp'],
    ['payload', 'type/Text', 'type/SerializedJSON'],
  ])('%s (%s) is %s', (name, baseType, semantic) => {
    expect(fromName(name, baseType)).toBe(semantic);
  });

  it.each<[string, string]>([
    ['email', 'type/Integer'], // the rule needs text
    ['price', 'type/Text'], // ... or a number
    ['latitude', 'type/Text'],
    ['created_at', 'type/Text'],
    ['created_at', 'type/Time'],
    ['city', 'type/JSON'],
    ['password', 'type/Text'],
    ['api_password', 'type/Text'],
    ['token', 'type/Text'],
    ['secret', 'type/Integer'],
    ['label', 'type/Text'],
    ['city_id', 'type/Integer'], // a FK only when the database says so
    ['emails_sent', 'type/Integer'],
    ['stated', 'type/Text'],
    ['', 'type/Text'],
  ])('%s (%s) has none', (name, baseType) => {
    expect(fromName(name, baseType)).toBeNull();
  });
});

describe('semanticTypeFromValues', () => {
  const emails = Array.from({ length: 40 }, (_, i) => `user${i}@example.com`);

  it('recognises emails, URLs and JSON text when (nearly) every value looks like one', () => {
    expect(semanticTypeFromValues('type/Text', emails, 40, 40)).toBe('type/Email');
    expect(semanticTypeFromValues('type/Text', [...emails, 'not an email'], 41, 41)).toBe('type/Email'); // 97.6%
    expect(semanticTypeFromValues('type/Text', [...emails.slice(0, 10), 'x', 'y'], 12, 12)).toBeNull(); // 83%
    expect(semanticTypeFromValues('type/Text', ['https://a.example/x', 'http://b.example', 'HTTPS://C.EXAMPLE/'], 3, 3)).toBe('type/URL');
    expect(semanticTypeFromValues('type/Text', ['{"a": 1}', '[1, 2]', ' {"b": [null]}'], 3, 3)).toBe('type/SerializedJSON');
    expect(semanticTypeFromValues('type/Text', ['{"a": 1}', '{not json'], 2, 2)).toBeNull();
  });

  it('ignores nulls, empty strings and non-strings when judging', () => {
    expect(semanticTypeFromValues('type/Text', [null, '', ...emails.slice(0, 5), null], 5, 8)).toBe('type/Email');
    expect(semanticTypeFromValues('type/Text', [null, '', null], 0, 3)).toBeNull();
    expect(semanticTypeFromValues('type/Text', [], 0, 0)).toBeNull();
  });

  it('calls short text with few distinct values that repeat a category', () => {
    const tiers = ['gold', 'silver', 'gold', 'silver', 'gold', 'silver'];
    expect(semanticTypeFromValues('type/Text', tiers, 2, 6)).toBe('type/Category');
    expect(semanticTypeFromValues('type/Text', tiers.slice(0, 3), 2, 3)).toBeNull(); // values must repeat: rows >= 2 x distinct
    expect(semanticTypeFromValues('type/Text', tiers, 31, 1000)).toBeNull(); // too many distinct values
    expect(semanticTypeFromValues('type/Text', ['x'.repeat(51), 'y'.repeat(51)], 2, 100)).toBeNull(); // too long for a category
    expect(semanticTypeFromValues('type/Text', tiers, 30, 60)).toBe('type/Category');
  });

  it('only looks at text', () => {
    expect(semanticTypeFromValues('type/Integer', [1, 2, 1, 2], 2, 4)).toBeNull();
    expect(semanticTypeFromValues('type/JSON', ['{"a": 1}'], 1, 1)).toBeNull();
  });
});

describe('displayName', () => {
  it.each<[string, string]>([
    ['ORDER_ID', 'Order ID'],
    ['order_id', 'Order ID'],
    ['id', 'ID'],
    ['createdAt', 'Created At'],
    ['userId', 'User ID'],
    ['user-email', 'User Email'],
    ['first.name', 'First Name'],
    ['  padded  name ', 'Padded Name'],
    ['event_labels', 'Event Labels'],
    ['address2', 'Address2'],
    ['Zürich_straße', 'Zürich Straße'],
    ['東京', '東京'],
    ['__', '__'],
  ])('%s -> %s', (name, shown) => {
    expect(displayName(name)).toBe(shown);
  });
});

describe('looksSecret', () => {
  it.each(['PASSWORD', 'password_hash', 'user_password', 'api_key', 'apikey', 'reset_token', 'client_secret', 'salt'])(
    'treats %s as a credential',
    (name) => {
      expect(looksSecret(name)).toBe(true);
    },
  );
  it.each(['PASSPORT_NO', 'name', 'category', 'tokenizer_kind', 'hashtag'])('leaves %s alone', (name) => {
    expect(looksSecret(name)).toBe(false);
  });
});

describe('chooseHasFieldValues', () => {
  const field = (name: string) =>
    ({ name, base_type: 'type/Text', user_edited: null, has_field_values: 'none' }) as unknown as WarehouseField;
  it('lists a low-cardinality text column, but never the values of a credential column', () => {
    expect(chooseHasFieldValues(field('CATEGORY'), 4, 'type/Category')).toBe('auto-list');
    expect(chooseHasFieldValues(field('PASSWORD'), 3, null)).toBe('none');
    expect(chooseHasFieldValues(field('api_token'), 2, 'type/Category')).toBe('none');
  });
});
