import type { XField, XRoot } from './xray.types';

/** Builder inputs shaped like the Sample Database's ORDERS with its linked PRODUCTS and PEOPLE (unit specs and bench). */
export function sampleField(
  id: number,
  tableId: number,
  name: string,
  baseType: string,
  semanticType: string | null,
  extra: Partial<XField> = {},
): XField {
  const displayName =
    name.charAt(0) +
    name
      .slice(1)
      .toLowerCase()
      .replace(/_(\w)/g, (_, c: string) => ` ${c.toUpperCase()}`);
  return {
    id,
    name,
    displayName,
    baseType,
    semanticType,
    tableId,
    position: id,
    via: null,
    distinct: null,
    binnable: baseType === 'type/Float' || baseType === 'type/Integer',
    hidden: false,
    ...extra,
  };
}

export const ORDERS = 2;
export const PRODUCTS = 1;
export const PEOPLE = 3;

export function ordersRoot(): XRoot {
  const own = [
    sampleField(10, ORDERS, 'ID', 'type/BigInteger', 'type/PK', { binnable: false }),
    sampleField(11, ORDERS, 'USER_ID', 'type/Integer', 'type/FK', { binnable: false }),
    sampleField(12, ORDERS, 'PRODUCT_ID', 'type/Integer', 'type/FK', { binnable: false }),
    sampleField(13, ORDERS, 'SUBTOTAL', 'type/Float', 'type/Currency'),
    sampleField(14, ORDERS, 'TAX', 'type/Float', 'type/Currency'),
    sampleField(15, ORDERS, 'TOTAL', 'type/Float', 'type/Currency'),
    sampleField(16, ORDERS, 'DISCOUNT', 'type/Float', 'type/Discount'),
    sampleField(17, ORDERS, 'CREATED_AT', 'type/DateTime', 'type/CreationTimestamp'),
    sampleField(18, ORDERS, 'QUANTITY', 'type/Integer', 'type/Quantity'),
  ];
  const linked = [
    sampleField(20, PRODUCTS, 'CATEGORY', 'type/Text', 'type/Category', { via: 12, distinct: 4, position: 40 }),
    sampleField(21, PRODUCTS, 'TITLE', 'type/Text', 'type/Title', { via: 12, distinct: 199, position: 41 }),
    sampleField(22, PRODUCTS, 'VENDOR', 'type/Text', 'type/Category', { via: 12, distinct: 200, position: 42 }),
    sampleField(30, PEOPLE, 'STATE', 'type/Text', 'type/State', { via: 11, distinct: 49, position: 50 }),
    sampleField(31, PEOPLE, 'SOURCE', 'type/Text', 'type/Source', { via: 11, distinct: 5, position: 51 }),
    sampleField(32, PEOPLE, 'NAME', 'type/Text', 'type/Name', { via: 11, distinct: 2499, position: 52 }),
  ];
  return {
    entity: 'table',
    entityId: String(ORDERS),
    url: `/auto/dashboard/table/${ORDERS}`,
    sourceName: 'Orders',
    tableName: 'Orders',
    databaseId: 1,
    tableId: ORDERS,
    sourceTable: ORDERS,
    filter: null,
    fields: [...own, ...linked],
  };
}
