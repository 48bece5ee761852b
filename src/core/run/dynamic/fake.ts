// Random texts for the JetBrains `$random.*` variables: strings of a given alphabet and length, and a
// few of the faker families its documentation lists ($random.name.firstName, $random.address.city, ...),
// from small word lists of our own. Values are random (crypto), never the same twice on purpose.
import { randomInt } from 'node:crypto';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const ALPHABETIC = LOWER + LOWER.toUpperCase();
export const ALPHANUMERIC = ALPHABETIC + '0123456789';
export const HEXADECIMAL = '0123456789abcdef';

export function randomText(alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[randomInt(alphabet.length)];
  return text;
}

const pick = (words: readonly string[]): string => words[randomInt(words.length)] ?? '';
const digits = (n: number): string => randomText('0123456789', n);

const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Edsger', 'Barbara', 'Dennis', 'Frances', 'Ken'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Dijkstra', 'Liskov', 'Ritchie', 'Allen', 'Thompson'];
const CITIES = ['Lisbon', 'Oslo', 'Dublin', 'Porto', 'Lyon', 'Gdansk', 'Tallinn', 'Bergen', 'Ghent', 'Turin'];
const COUNTRIES = ['Portugal', 'Norway', 'Ireland', 'France', 'Poland', 'Estonia', 'Belgium', 'Italy'];
const STREETS = ['Harbour', 'Mill', 'Station', 'Church', 'Market', 'Orchard', 'River'];
const COMPANIES = ['Northwind', 'Blue Harbour', 'Granite', 'Lighthouse', 'Summit', 'Redwood'];
const WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'tempor', 'magna', 'aliqua', 'veniam', 'nostrud'];
const COLORS = ['red', 'green', 'blue', 'amber', 'teal', 'violet', 'ochre'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];

/** The faker-like families and their methods: `$random.<family>.<method>`. */
export const FAKER: Readonly<Record<string, Readonly<Record<string, () => string>>>> = {
  name: {
    firstName: () => pick(FIRST),
    lastName: () => pick(LAST),
    fullName: () => `${pick(FIRST)} ${pick(LAST)}`,
    username: () => `${pick(FIRST).toLowerCase()}.${pick(LAST).toLowerCase()}`,
  },
  address: {
    city: () => pick(CITIES),
    country: () => pick(COUNTRIES),
    streetName: () => `${pick(STREETS)} Street`,
    streetAddress: () => `${randomInt(1, 300)} ${pick(STREETS)} Street`,
    zipCode: () => digits(5),
    latitude: () => (randomInt(-90_000_000, 90_000_000) / 1e6).toFixed(6),
    longitude: () => (randomInt(-180_000_000, 180_000_000) / 1e6).toFixed(6),
  },
  internet: {
    emailAddress: () => `${randomText(LOWER, 8)}@${pick(DOMAINS)}`,
    domainName: () => pick(DOMAINS),
    url: () => `https://www.${pick(DOMAINS)}/${randomText(LOWER, 6)}`,
    uuid: () => crypto.randomUUID(),
    ipV4Address: () => [randomInt(1, 255), randomInt(256), randomInt(256), randomInt(1, 255)].join('.'),
    password: () => randomText(ALPHANUMERIC, 12),
  },
  phoneNumber: {
    phoneNumber: () => `+1-555-${digits(3)}-${digits(4)}`,
    cellPhone: () => `+1-555-${digits(3)}-${digits(4)}`,
  },
  company: {
    name: () => `${pick(COMPANIES)} ${pick(['Ltd', 'Inc', 'Group'])}`,
  },
  lorem: {
    word: () => pick(WORDS),
    sentence: () => `${Array.from({ length: 6 }, () => pick(WORDS)).join(' ')}.`,
  },
  color: {
    name: () => pick(COLORS),
  },
  bool: {
    bool: () => String(randomInt(2) === 1),
  },
  number: {
    digit: () => digits(1),
    randomDigit: () => digits(1),
  },
};

/** Every `$random.<family>.<method>` name, for the table's words. */
export function fakerNames(): string[] {
  return Object.entries(FAKER).flatMap(([family, methods]) => Object.keys(methods).map((method) => `$random.${family}.${method}`));
}
