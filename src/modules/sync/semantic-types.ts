/**
 * Semantic types a user expects from a column's name, type and values. Order matters: the first rule that
 * matches wins. Names are matched case-insensitively on the whole name or a `_`-separated word.
 */
const TEXT = 'type/Text';
const isNumeric = (t: string) => ['type/Integer', 'type/BigInteger', 'type/Float', 'type/Decimal'].includes(t);
const isTemporal = (t: string) => ['type/Date', 'type/DateTime', 'type/DateTimeWithLocalTZ'].includes(t);

/** Columns whose values are credentials: never guessed from values, never listed, never sampled. */
const SECRET_NAME = /^(password|passwd|pwd|.*_password|password_.*|secret|.*_secret|token|.*_token|api_?key|.*_hash|salt)$/;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase());
}

interface NameRule {
  pattern: RegExp;
  semantic: string;
  when: (baseType: string) => boolean;
}

const any = () => true;
const text = (t: string) => t === TEXT;
const NAME_RULES: NameRule[] = [
  { pattern: /^(e[-_]?mail|email_address|.*_email)$/, semantic: 'type/Email', when: text },
  // Before URL, which would take every `*_url`.
  { pattern: /^(avatar|image|(.*_)?image_url|avatar_url|photo|photo_url)$/, semantic: 'type/ImageURL', when: text },
  { pattern: /^(url|website|homepage|.*_url|link)$/, semantic: 'type/URL', when: text },
  { pattern: /^(lat|latitude|.*_latitude)$/, semantic: 'type/Latitude', when: isNumeric },
  { pattern: /^(lon|lng|long|longitude|.*_longitude)$/, semantic: 'type/Longitude', when: isNumeric },
  { pattern: /^(zip|zipcode|zip_code|postal_code|postcode|postalcode)$/, semantic: 'type/ZipCode', when: (t) => text(t) || isNumeric(t) },
  { pattern: /^(city|town|.*_city)$/, semantic: 'type/City', when: text },
  { pattern: /^(state|province|region|.*_state)$/, semantic: 'type/State', when: text },
  { pattern: /^(country|.*_country|country_code)$/, semantic: 'type/Country', when: text },
  { pattern: /^(title|.*_title)$/, semantic: 'type/Title', when: text },
  // Before Name, which would take `vendor_name`.
  { pattern: /^(company|.*_company|organization|vendor_name)$/, semantic: 'type/Company', when: text },
  { pattern: /^(name|.*_name|username|reviewer|full_name|first_name|last_name)$/, semantic: 'type/Name', when: text },
  { pattern: /^(description|.*_description|body|comment|comments|notes?|summary)$/, semantic: 'type/Description', when: text },
  { pattern: /^(category|.*_category|type|kind|.*_type|vendor|source|status)$/, semantic: 'type/Category', when: text },
  { pattern: /^(price|.*_price|cost|unit_cost)$/, semantic: 'type/Price', when: isNumeric },
  { pattern: /^(discount|.*_discount)$/, semantic: 'type/Discount', when: isNumeric },
  { pattern: /^(income|revenue|.*_revenue|subtotal|total|amount|.*_amount|tax|fee)$/, semantic: 'type/Currency', when: isNumeric },
  { pattern: /^(quantity|qty|count|.*_count|num_.*|number_of_.*)$/, semantic: 'type/Quantity', when: isNumeric },
  { pattern: /^(score|rating|.*_score|.*_rating|stars)$/, semantic: 'type/Score', when: isNumeric },
  { pattern: /^(percent|.*_percent|.*_pct|percentage)$/, semantic: 'type/Percentage', when: isNumeric },
  {
    pattern: /^(created_at|created|creation_date|created_on|inserted_at|date_created)$/,
    semantic: 'type/CreationTimestamp',
    when: isTemporal,
  },
  { pattern: /^(updated_at|updated|modified_at|last_modified|date_updated)$/, semantic: 'type/UpdatedTimestamp', when: isTemporal },
  { pattern: /^(deleted_at|cancelled_at|canceled_at)$/, semantic: 'type/CancelationTimestamp', when: isTemporal },
  { pattern: /^(birth_?date|date_of_birth|dob|birthday)$/, semantic: 'type/Birthdate', when: isTemporal },
  { pattern: /^(join_date|joined_at|signup_date|signed_up_at)$/, semantic: 'type/JoinTimestamp', when: isTemporal },
  { pattern: /^(json|.*_json|payload|metadata)$/, semantic: 'type/SerializedJSON', when: text },
  { pattern: SECRET_NAME, semantic: '__none__', when: any },
];

export interface ColumnFacts {
  name: string;
  baseType: string;
  isPk: boolean;
  isFk: boolean;
}

/** The semantic type from what sync knows before reading values. */
export function semanticTypeFromName(c: ColumnFacts): string | null {
  if (c.isPk) return 'type/PK';
  if (c.isFk) return 'type/FK';
  const name = c.name.toLowerCase();
  for (const rule of NAME_RULES) {
    if (rule.pattern.test(name) && rule.when(c.baseType)) return rule.semantic === '__none__' ? null : rule.semantic;
  }
  return null;
}

/** Refines a text field's type from sampled values when its name said nothing. */
export function semanticTypeFromValues(baseType: string, values: unknown[], distinctCount: number, rowCount: number): string | null {
  if (baseType !== TEXT) return null;
  const strings = values.filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (strings.length === 0) return null;
  const share = (re: RegExp) => strings.filter((s) => re.test(s)).length / strings.length;
  if (share(/^[^\s@]+@[^\s@]+\.[^\s@]+$/) >= 0.95) return 'type/Email';
  if (share(/^https?:\/\/\S+$/i) >= 0.95) return 'type/URL';
  if (share(/^\s*[[{]/) >= 0.95 && strings.every(isJson)) return 'type/SerializedJSON';
  const avgLength = strings.reduce((n, s) => n + s.length, 0) / strings.length;
  if (distinctCount > 0 && distinctCount <= 30 && avgLength <= 50 && rowCount >= distinctCount * 2) return 'type/Category';
  return null;
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** `ORDER_ID` -> `Order ID`, `createdAt` -> `Created At`: Metabase's humanized display names. */
export function displayName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\-\s.]+/)
    .filter(Boolean)
    .map((w) => (/^id$/i.test(w) ? 'ID' : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()));
  return words.join(' ') || name;
}
