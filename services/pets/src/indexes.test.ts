import { describe, expect } from 'vitest';
import { ensureIndexes } from './indexes.js';
import { nameKeyOf } from './storage.js';
import { it } from './test-support/pets-service.js';

describe('nameKeyOf', () => {
  it.for([
    ['straße', 'STRASSE'],
    ['σας', 'ΣΑΣ'],
    ['ﬁsh', 'FISH'],
    [' Cafe\u0301 ', 'CAFÉ'],
  ])('makes %s and %s the same key', ([one, other]) => {
    expect(nameKeyOf(one!)).toBe(nameKeyOf(other!));
  });
});

describe('names stored under the lower-casing rule', () => {
  it('get the case-folded key at start-up, so the folded twin is refused', async ({
    pets,
  }) => {
    const categories = pets.db.collection('categories');
    await categories.insertOne({
      _id: 1 as never,
      name: 'Straße',
      nameKey: 'straße',
      revision: 0,
    });
    await ensureIndexes(pets.db);
    expect(await categories.findOne({ _id: 1 as never })).toMatchObject({
      nameKey: 'strasse',
    });
    const answer = await pets.call('POST', '/v1/categories', {
      body: { name: 'STRASSE' },
    });
    expect(answer).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });

  it('keep their old key when two of them now fold alike', async ({ pets }) => {
    const categories = pets.db.collection('categories');
    await categories.insertMany([
      { _id: 1 as never, name: 'straße', nameKey: 'straße', revision: 0 },
      { _id: 2 as never, name: 'STRASSE', nameKey: 'strasse', revision: 0 },
    ]);
    await ensureIndexes(pets.db);
    expect(
      await categories.find({}, { sort: { _id: 1 } }).toArray(),
    ).toMatchObject([{ nameKey: 'straße' }, { nameKey: 'strasse' }]);
  });
});
