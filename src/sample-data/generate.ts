import { Random, cumulative } from './prng';
import { PLACES, STATE_TAX } from './us-places';
import {
  ADJECTIVES,
  CATEGORIES,
  CATEGORY_PRICES,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  MATERIALS,
  NOUNS,
  REVIEW_TEXT,
  SOURCES,
  SOURCE_WEIGHTS,
  STREETS,
  STREET_SUFFIXES,
  VENDOR_SUFFIXES,
} from './words';

/**
 * The Sample Database's rows. Products, people and reviews are fixed by the seed (about 4,000 rows, kept in
 * memory); orders are generated day by day over four years for any requested count, with growth, seasonality
 * and a weekly rhythm, and handed out in batches, so memory stays constant for millions of orders. Each table
 * draws from its own random stream: the same seed gives the same people whatever the order count.
 * Rows follow the column order of schema.ts; timestamps are epoch seconds (UTC), dates epoch days.
 */
export type Row = (string | number | null)[];

export const DEFAULT_SEED = 42;
export const DEFAULT_ORDERS = 18_760;
export const PRODUCT_COUNT = 200;
export const PEOPLE_COUNT = 2_500;
export const REVIEW_COUNT = 1_100;

const DAY = 86_400;
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 1000;
export const ORDERS_START = utc(2022, 4, 1);
export const ORDERS_END = utc(2026, 4, 1);
const PRODUCTS_START = utc(2021, 4, 1);
const PRODUCTS_END = utc(2024, 4, 1);
const PEOPLE_START = utc(2021, 10, 1);
const BIRTH_FIRST_DAY = utc(1958, 1, 1) / DAY;
const BIRTH_LAST_DAY = utc(2005, 12, 31) / DAY;

/** Relative order volume by month (Jan..Dec), weekday (Sun..Sat) and hour of day (UTC). */
const SEASON = [0.85, 0.8, 0.9, 0.95, 1, 0.95, 0.9, 0.95, 1, 1.05, 1.3, 1.45];
const WEEKDAY = [0.8, 1, 1.02, 1.03, 1.05, 1.1, 0.9];
const HOURS = cumulative([2, 1, 1, 1, 1, 2, 3, 5, 7, 8, 9, 10, 10, 9, 9, 9, 10, 11, 12, 12, 11, 9, 6, 4]);
const QUANTITIES = cumulative([30, 22, 15, 10, 8, 5, 4, 3, 2, 1]);
const PLACE_WEIGHTS = cumulative(PLACES.map((p) => Math.sqrt(p[5])));
const SOURCE_CUMULATIVE = cumulative(SOURCE_WEIGHTS);

const round = (x: number, places: number) => {
  const f = places === 2 ? 100 : places === 1 ? 10 : 10_000_000;
  return Math.round(x * f) / f;
};

function byCreatedAt<T extends { created: number; draw: number }>(items: T[]): T[] {
  return items.sort((a, b) => a.created - b.created || a.draw - b.draw);
}

interface Product {
  draw: number;
  created: number;
  ean: string;
  title: string;
  category: string;
  vendor: string;
  price: number;
  rating: number;
  popularity: number;
}

interface Person {
  draw: number;
  created: number;
  row: Row;
  taxRate: number;
}

export class SampleData {
  readonly products: Row[];
  readonly people: Row[];
  readonly reviews: Row[];
  private readonly productList: Product[];
  private readonly productCreated: Float64Array;
  private readonly productPopularity: Float64Array;
  private readonly peopleCreated: Float64Array;
  private readonly peopleTax: Float64Array;

  constructor(readonly seed: number = DEFAULT_SEED) {
    this.productList = makeProducts(new Random(seed, 'products'));
    this.products = this.productList.map((p, i) => [i + 1, p.ean, p.title, p.category, p.vendor, p.price, p.rating, p.created]);
    this.productCreated = Float64Array.from(this.productList, (p) => p.created);
    this.productPopularity = cumulative(this.productList.map((p) => p.popularity));
    const people = makePeople(new Random(seed, 'people'));
    this.people = people.map((p, i) => [i + 1, ...p.row]);
    this.peopleCreated = Float64Array.from(people, (p) => p.created);
    this.peopleTax = Float64Array.from(people, (p) => p.taxRate);
    this.reviews = this.makeReviews(new Random(seed, 'reviews'));
  }

  /** Exactly `total` orders in id order (which is also time order), in arrays of up to `batchSize` rows. */
  *orderBatches(total: number = DEFAULT_ORDERS, batchSize = 10_000): Generator<Row[]> {
    const rng = new Random(this.seed, 'orders');
    const days = (ORDERS_END - ORDERS_START) / DAY;
    const weights: number[] = [];
    for (let d = 0; d < days; d++) {
      const date = new Date((ORDERS_START + d * DAY) * 1000);
      weights.push((1 + (2 * d) / days) * SEASON[date.getUTCMonth()] * WEEKDAY[date.getUTCDay()]);
    }
    const cum = cumulative(weights);
    const sum = cum[days - 1];
    let batch: Row[] = [];
    let id = 1;
    let users = 0;
    let products = 0;
    let before = 0;
    for (let d = 0; d < days; d++) {
      const upTo = Math.round((total * cum[d]) / sum);
      const times = new Float64Array(upTo - before);
      before = upTo;
      const dayStart = ORDERS_START + d * DAY;
      for (let k = 0; k < times.length; k++) times[k] = dayStart + rng.weighted(HOURS) * 3600 + rng.int(0, 3599);
      times.sort();
      for (const t of times) {
        while (users < this.peopleCreated.length && this.peopleCreated[users] <= t) users++;
        while (products < this.productCreated.length && this.productCreated[products] <= t) products++;
        const user = rng.int(0, Math.max(users, 1) - 1);
        const product = rng.weighted(this.productPopularity, Math.max(products, 1));
        const quantity = rng.weighted(QUANTITIES) + 1;
        const subtotal = round(this.productList[product].price * quantity, 2);
        const tax = round(subtotal * this.peopleTax[user], 2);
        const discount = rng.chance(0.1) ? round(subtotal * (0.05 + rng.float() * 0.2), 2) : null;
        const totalPrice = round(subtotal + tax - (discount ?? 0), 2);
        batch.push([id++, user + 1, product + 1, subtotal, tax, totalPrice, discount, t, quantity]);
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length) yield batch;
  }

  private makeReviews(rng: Random): Row[] {
    const reviews = [];
    for (let draw = 0; draw < REVIEW_COUNT; draw++) {
      const p = rng.weighted(this.productPopularity);
      const product = this.productList[p];
      const start = product.created + 3 * DAY;
      const created = start + Math.floor(rng.float() * (ORDERS_END - start));
      const rating =
        product.rating === 0 ? rng.int(1, 5) : Math.min(5, Math.max(1, Math.round(product.rating + (rng.float() + rng.float() - 1) * 2)));
      const first = rng.pick(FIRST_NAMES).toLowerCase();
      const suffix = rng.chance(0.5) ? rng.pick(LAST_NAMES).toLowerCase().slice(0, rng.int(1, 4)) : '';
      const reviewer = `${first}${suffix}${rng.chance(0.3) ? rng.int(1, 99) : ''}`;
      const text = rating >= 4 ? REVIEW_TEXT.good : rating === 3 ? REVIEW_TEXT.okay : REVIEW_TEXT.bad;
      const [, material, noun] = product.title.split(' ');
      const body = [rng.pick(text.open), rng.pick(text.detail), rng.pick(text.close)]
        .join(' ')
        .replace('{noun}', noun.toLowerCase())
        .replace('{material}', material.toLowerCase());
      reviews.push({ draw, created, row: [p + 1, reviewer, rating, body, created] });
    }
    return byCreatedAt(reviews).map((r, i) => [i + 1, ...r.row]);
  }
}

function makeProducts(rng: Random): Product[] {
  const vendors = Array.from({ length: 60 }, () => vendorName(rng));
  const categories = Array.from({ length: PRODUCT_COUNT }, (_, i) => CATEGORIES[i % CATEGORIES.length]);
  for (let i = categories.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [categories[i], categories[j]] = [categories[j], categories[i]];
  }
  const products: Product[] = categories.map((category, draw) => {
    const [lo, hi] = CATEGORY_PRICES[category];
    const rating = rng.chance(0.02) ? 0 : round(5 - 3 * rng.float() * rng.float(), 1);
    return {
      draw,
      created: PRODUCTS_START + Math.floor(rng.float() * (PRODUCTS_END - PRODUCTS_START)),
      ean: ean13(rng),
      title: `${rng.pick(ADJECTIVES)} ${rng.pick(MATERIALS)} ${rng.pick(NOUNS)}`,
      category,
      vendor: rng.pick(vendors),
      price: round(lo + ((hi - lo) * (rng.float() + rng.float())) / 2, 2),
      rating,
      popularity: 0.4 + rating / 5 + rng.float() * 0.8,
    };
  });
  return byCreatedAt(products);
}

function makePeople(rng: Random): Person[] {
  const people: Person[] = [];
  for (let draw = 0; draw < PEOPLE_COUNT; draw++) {
    // 8% signed up before the first order; the rest at a rate that grows threefold over the four years.
    const u = rng.float();
    const created = rng.chance(0.08)
      ? PEOPLE_START + Math.floor(u * (ORDERS_START - PEOPLE_START))
      : ORDERS_START + Math.floor(((Math.sqrt(1 + 8 * u) - 1) / 2) * (ORDERS_END - 7 * DAY - ORDERS_START));
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const [city, state, zip, latitude, longitude] = PLACES[rng.weighted(PLACE_WEIGHTS)];
    const row: Row = [
      `${rng.int(1, 9999)} ${rng.pick(STREETS)} ${rng.pick(STREET_SUFFIXES)}`,
      `${first.toLowerCase()}.${last.toLowerCase()}${rng.int(1, 999)}@${rng.pick(EMAIL_DOMAINS)}`,
      uuid(rng),
      `${first} ${last}`,
      city,
      round(longitude + (rng.float() - 0.5) * 0.1, 7),
      state,
      SOURCES[rng.weighted(SOURCE_CUMULATIVE)],
      rng.int(BIRTH_FIRST_DAY, BIRTH_LAST_DAY),
      String(Number(zip) + rng.int(0, 9)).padStart(5, '0'),
      round(latitude + (rng.float() - 0.5) * 0.1, 7),
      created,
    ];
    people.push({ draw, created, row, taxRate: STATE_TAX[state] ?? 0 });
  }
  return byCreatedAt(people);
}

function vendorName(rng: Random): string {
  const a = rng.pick(LAST_NAMES);
  const b = rng.pick(LAST_NAMES);
  switch (rng.int(0, 2)) {
    case 0:
      return `${a} ${rng.pick(VENDOR_SUFFIXES)}`;
    case 1:
      return `${a}-${b}`;
    default:
      return `${a}, ${b} and ${rng.pick(LAST_NAMES)}`;
  }
}

function ean13(rng: Random): string {
  let digits = '';
  let sum = 0;
  for (let i = 0; i < 12; i++) {
    const d = rng.int(0, 9);
    digits += d;
    sum += i % 2 === 0 ? d : 3 * d;
  }
  return digits + ((10 - (sum % 10)) % 10);
}

function uuid(rng: Random): string {
  const h = rng.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[rng.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
