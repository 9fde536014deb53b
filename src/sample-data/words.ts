/** Word lists for names, products and reviews. ASCII only, so emails and sorting need no Unicode tables. */
export const FIRST_NAMES = [
  'Aaron', 'Abigail', 'Adrian', 'Alice', 'Amelia', 'Andre', 'Anna', 'Ava', 'Benjamin', 'Bianca', 'Caleb', 'Camila',
  'Carlos', 'Chloe', 'Daniel', 'Diana', 'Dominic', 'Elena', 'Elijah', 'Emily', 'Ethan', 'Fatima', 'Felix', 'Grace',
  'Hannah', 'Hector', 'Isaac', 'Isabella', 'Jack', 'Jasmine', 'Javier', 'Julia', 'Kai', 'Keisha', 'Leah', 'Liam',
  'Lucas', 'Maria', 'Mason', 'Maya', 'Mia', 'Nathan', 'Nina', 'Noah', 'Olivia', 'Omar', 'Owen', 'Priya', 'Quinn',
  'Rachel', 'Ravi', 'Rosa', 'Ryan', 'Samuel', 'Sara', 'Sofia', 'Thomas', 'Tyler', 'Valeria', 'Victor', 'Wei',
  'William', 'Xavier', 'Yara', 'Yusuf', 'Zoe',
];

export const LAST_NAMES = [
  'Abbott', 'Adams', 'Alvarez', 'Bailey', 'Baker', 'Bennett', 'Brooks', 'Carter', 'Chen', 'Collins', 'Cruz', 'Davis',
  'Diaz', 'Edwards', 'Evans', 'Fischer', 'Flores', 'Foster', 'Garcia', 'Gomez', 'Gray', 'Green', 'Hall', 'Harris',
  'Hayes', 'Hernandez', 'Hill', 'Hughes', 'Jackson', 'James', 'Jenkins', 'Johnson', 'Kelly', 'Kim', 'King', 'Kowalski',
  'Lee', 'Lewis', 'Lopez', 'Martin', 'Mendoza', 'Miller', 'Mitchell', 'Moore', 'Morgan', 'Murphy', 'Nguyen', 'Novak',
  'Okafor', 'Ortiz', 'Parker', 'Patel', 'Perez', 'Price', 'Ramirez', 'Reed', 'Reyes', 'Rivera', 'Roberts', 'Rogers',
  'Sanchez', 'Schmidt', 'Scott', 'Shah', 'Singh', 'Stewart', 'Sullivan', 'Taylor', 'Thompson', 'Torres', 'Turner',
  'Walker', 'Ward', 'Watson', 'White', 'Williams', 'Wilson', 'Wong', 'Wright', 'Young', 'Zimmerman',
];

export const STREETS = [
  'Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Walnut', 'Willow', 'Birch', 'Chestnut', 'Spruce', 'Lake', 'Hill', 'River',
  'Park', 'Sunset', 'Highland', 'Meadow', 'Forest', 'Ridge', 'Valley', 'Washington', 'Lincoln', 'Jefferson', 'Madison',
  'Franklin', 'Main', 'Church', 'Mill', 'Spring', 'Prospect', 'Railroad', 'Harbor', 'Orchard', 'Summit',
];

export const STREET_SUFFIXES = ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court', 'Boulevard', 'Way', 'Place', 'Terrace'];

export const EMAIL_DOMAINS = ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'proton.me', 'aol.com'];

export const SOURCES = ['Affiliate', 'Facebook', 'Google', 'Organic', 'Twitter'] as const;
export const SOURCE_WEIGHTS = [18, 20, 24, 22, 16];

export const CATEGORIES = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'] as const;
/** Price range per category, in dollars. */
export const CATEGORY_PRICES: Record<(typeof CATEGORIES)[number], [number, number]> = {
  Doohickey: [18, 80],
  Gadget: [24, 100],
  Gizmo: [20, 90],
  Widget: [22, 98],
};

export const ADJECTIVES = [
  'Aerodynamic', 'Awesome', 'Durable', 'Enormous', 'Ergonomic', 'Fantastic', 'Gorgeous', 'Heavy-Duty', 'Incredible',
  'Intelligent', 'Lightweight', 'Mediocre', 'Practical', 'Rustic', 'Sleek', 'Small', 'Synergistic', 'Compact',
];
export const MATERIALS = [
  'Aluminum', 'Bronze', 'Concrete', 'Copper', 'Cotton', 'Granite', 'Iron', 'Leather', 'Linen', 'Marble', 'Paper',
  'Plastic', 'Rubber', 'Silk', 'Steel', 'Wooden', 'Wool',
];
export const NOUNS = [
  'Bag', 'Bench', 'Bottle', 'Car', 'Chair', 'Clock', 'Coat', 'Computer', 'Gloves', 'Hat', 'Keyboard', 'Knife', 'Lamp',
  'Pants', 'Plate', 'Shirt', 'Shoes', 'Table', 'Wallet', 'Watch',
];
export const VENDOR_SUFFIXES = ['Inc', 'LLC', 'Group', 'and Sons', 'Co', 'Ltd', 'Supply', 'Works'];

/** Review sentences by mood; {noun} and {material} are filled from the product title. */
export const REVIEW_TEXT = {
  good: {
    open: ['Love it!', 'Works exactly as described.', 'Great value for the price.', 'Exceeded my expectations.', 'Really happy with this one.'],
    detail: [
      'The {noun} feels solid and well made.', 'Shipping was quick and the packaging was fine.', 'I use it every day.',
      'Setup took five minutes.', 'The {material} finish looks even better in person.',
    ],
    close: ['Five stars.', 'Highly recommended.', 'No complaints so far.', 'Would buy again.'],
  },
  okay: {
    open: ['It does the job.', 'Decent, but not amazing.', 'Okay for the price.', 'Mixed feelings.'],
    detail: ['The {material} finish scratches easily.', 'Took a while to arrive.', 'Smaller than I expected.', 'The {noun} is a bit wobbly.'],
    close: ['Might look elsewhere next time.', 'Three stars.', 'Fine, I guess.'],
  },
  bad: {
    open: ['Disappointed.', 'Not worth the money.', 'Broke after a week.', 'Do not buy.'],
    detail: ['Customer service never answered.', 'The {noun} arrived damaged.', 'The instructions were confusing.', 'The {material} started peeling.'],
    close: ['Would not recommend.', 'Returning it.', 'One star is generous.'],
  },
};
