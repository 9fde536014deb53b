import type { FieldVisibility, HasFieldValues, SemanticType } from '../../api/field';

/**
 * Metabase's names for the semantic types, grouped as its data model editor groups them. A Record over the server's
 * own list (UpdateFieldDto's enum, generated): a type the server adds or drops breaks the build here.
 */
const SEMANTIC_LABELS: Record<SemanticType, [group: string, label: string]> = {
  'type/PK': ['Overall row', 'Entity Key'],
  'type/Name': ['Overall row', 'Entity Name'],
  'type/FK': ['Overall row', 'Foreign Key'],
  'type/Category': ['Common', 'Category'],
  'type/Comment': ['Common', 'Comment'],
  'type/Description': ['Common', 'Description'],
  'type/Title': ['Common', 'Title'],
  'type/City': ['Location', 'City'],
  'type/Country': ['Location', 'Country'],
  'type/Latitude': ['Location', 'Latitude'],
  'type/Longitude': ['Location', 'Longitude'],
  'type/State': ['Location', 'State'],
  'type/ZipCode': ['Location', 'Zip Code'],
  'type/Address': ['Location', 'Address'],
  'type/Location': ['Location', 'Location'],
  'type/Coordinate': ['Location', 'Coordinate'],
  'type/Cost': ['Financial', 'Cost'],
  'type/Currency': ['Financial', 'Currency'],
  'type/Discount': ['Financial', 'Discount'],
  'type/GrossMargin': ['Financial', 'Gross margin'],
  'type/Income': ['Financial', 'Income'],
  'type/Price': ['Financial', 'Price'],
  'type/Quantity': ['Numeric', 'Quantity'],
  'type/Score': ['Numeric', 'Score'],
  'type/Share': ['Numeric', 'Share'],
  'type/Percentage': ['Numeric', 'Percentage'],
  'type/Duration': ['Numeric', 'Duration'],
  'type/Birthdate': ['Profile', 'Birthday'],
  'type/Company': ['Profile', 'Company'],
  'type/Email': ['Profile', 'Email'],
  'type/Owner': ['Profile', 'Owner'],
  'type/Author': ['Profile', 'Author'],
  'type/User': ['Profile', 'User'],
  'type/Product': ['Profile', 'Product'],
  'type/Subscription': ['Profile', 'Subscription'],
  'type/Source': ['Profile', 'Source'],
  'type/CreationTemporal': ['Date and time', 'Creation date and time'],
  'type/CreationTimestamp': ['Date and time', 'Creation timestamp'],
  'type/CreationTime': ['Date and time', 'Creation time'],
  'type/CreationDate': ['Date and time', 'Creation date'],
  'type/JoinTemporal': ['Date and time', 'Join date and time'],
  'type/JoinTimestamp': ['Date and time', 'Join timestamp'],
  'type/JoinTime': ['Date and time', 'Join time'],
  'type/JoinDate': ['Date and time', 'Join date'],
  'type/CancelationTemporal': ['Date and time', 'Cancelation date and time'],
  'type/CancelationTimestamp': ['Date and time', 'Cancelation timestamp'],
  'type/CancelationTime': ['Date and time', 'Cancelation time'],
  'type/CancelationDate': ['Date and time', 'Cancelation date'],
  'type/DeletionTemporal': ['Date and time', 'Deletion date and time'],
  'type/DeletionTimestamp': ['Date and time', 'Deletion timestamp'],
  'type/DeletionTime': ['Date and time', 'Deletion time'],
  'type/DeletionDate': ['Date and time', 'Deletion date'],
  'type/UpdatedTemporal': ['Date and time', 'Updated date and time'],
  'type/UpdatedTimestamp': ['Date and time', 'Updated timestamp'],
  'type/UpdatedTime': ['Date and time', 'Updated time'],
  'type/UpdatedDate': ['Date and time', 'Updated date'],
  'type/URL': ['Other', 'URL'],
  'type/ImageURL': ['Other', 'Image URL'],
  'type/AvatarURL': ['Other', 'Avatar Image URL'],
  'type/Enum': ['Other', 'Enum'],
  'type/IPAddress': ['Other', 'IP address'],
  'type/Structured': ['Other', 'Structured'],
  'type/SerializedJSON': ['Other', 'Field containing JSON'],
  'type/XML': ['Other', 'XML'],
  'type/JSON': ['Other', 'JSON'],
};

/** NativeSelect's data: "No semantic type" first, then the groups in the order above. */
export const SEMANTIC_TYPE_OPTIONS = (() => {
  const groups = new Map<string, Array<{ value: string; label: string }>>();
  for (const [value, [group, label]] of Object.entries(SEMANTIC_LABELS)) {
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group)!.push({ value, label });
  }
  return [{ group: 'None', items: [{ value: '', label: 'No semantic type' }] }, ...[...groups].map(([group, items]) => ({ group, items }))];
})();

export const semanticLabel = (t: string | null) => (t && t in SEMANTIC_LABELS ? SEMANTIC_LABELS[t as SemanticType][1] : 'No semantic type');

/** Where a field shows (`visibility_type`); `hidden` is what sync sets for some columns and is kept when read. */
export const FIELD_VISIBILITY_OPTIONS: Array<{ value: FieldVisibility; label: string }> = [
  { value: 'normal', label: 'Everywhere' },
  { value: 'details-only', label: 'Only in detail views' },
  { value: 'sensitive', label: 'Do not include' },
  { value: 'retired', label: 'Retired' },
  { value: 'hidden', label: 'Hidden' },
];

/** The filter widget (`has_field_values`); `auto-list` is the server's choice of a list, shown as a list. */
export const FILTERING_OPTIONS: Array<{ value: HasFieldValues; label: string }> = [
  { value: 'search', label: 'Search box' },
  { value: 'list', label: 'A list of all values' },
  { value: 'none', label: 'Plain input box' },
  { value: 'auto-list', label: 'A list (chosen by sync)' },
];

/** Table visibility (`visibility_type`): null is queryable; the others hide it, with the reason Metabase names. */
export const TABLE_VISIBILITY_OPTIONS = [
  { value: '', label: 'Queryable' },
  { value: 'hidden', label: 'Hidden' },
  { value: 'technical', label: 'Hidden: technical data' },
  { value: 'cruft', label: 'Hidden: irrelevant or cruft' },
] as const;
